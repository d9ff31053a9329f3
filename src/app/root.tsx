/** Mounts the app. A chunk of its own, loaded by main.tsx once boot.ts has started the first screen's reads. */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';

export function mount(container: HTMLElement): void {
  // A transition render yields to the browser between components instead of blocking the main thread
  // in one long task.
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
