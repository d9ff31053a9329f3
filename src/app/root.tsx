/** Mounts the app: a chunk of its own (the shell), loaded by main.tsx while the router loads the first screen. */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './provider.tsx';
import type { AppRouter } from './router.tsx';

export function mount(container: HTMLElement, router: AppRouter): void {
  // A transition render yields to the browser between components instead of blocking the main thread
  // in one long task.
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <AppProvider>
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    ),
  );
}
