/**
 * vite-plugin-pwa's `virtual:pwa-register/react` exists only where the plugin runs (the app's build and
 * dev server); the unit tests resolve it to this stand-in (vitest.config.ts), which registers nothing.
 */
import { useState } from 'react';

export function useRegisterSW() {
  return { needRefresh: useState(false), offlineReady: useState(false), updateServiceWorker: async () => {} };
}
