import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { dismissAllToasts } from '../components/ui/toaster.tsx';

// findBy…/waitFor resolve as soon as the page is right; the bound only matters on a loaded machine, where a
// toast's exit animation alone has taken more than 3 s
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks a few browser APIs Chakra / Zag touch.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver });
  Object.assign(globalThis, { ResizeObserver });
}
if (!Element.prototype.scrollTo) Element.prototype.scrollTo = () => {};
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

afterEach(() => {
  dismissAllToasts();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
