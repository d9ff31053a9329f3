import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { srcAlias } from './vite.config.ts';

// One Vitest, four projects. `scripts/test.js` runs them in order and gives the database-backed ones
// DATABASE_URL (a fresh, migrated database) and, for api/e2e, the URL of a running server.
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: {
          alias: [
            srcAlias,
            // the service worker's registration is a module of vite-plugin-pwa's build: a stand-in here
            {
              find: 'virtual:pwa-register/react',
              replacement: fileURLToPath(new URL('./src/test/pwa-register.ts', import.meta.url)),
            },
          ],
        },
        test: {
          name: 'unit',
          environment: 'jsdom',
          // the SPA's tests, and unit tests of the server's and scripts' pure parts (configuration)
          include: ['src/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.ts'],
          setupFiles: ['src/test/setup.ts'],
          // a component test types and clicks through a whole form: on a busy 2-core machine (CI, or several
          // suites at once) that outlasts Vitest's default 5 s without anything being wrong
          testTimeout: 20_000,
        },
      },
      { test: { name: 'db', environment: 'node', include: ['tests/db/**/*.test.ts'], testTimeout: 60_000 } },
      {
        // a test in a folder of its own (tests/api/admin/) imports from src by `@/…`
        resolve: { alias: [srcAlias] },
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
