import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { headersFile } from './scripts/lib/site-headers.ts';
import { APP_NAME } from './src/config/app.ts';

// In `npm run dev`, scripts/start.js runs the API under Deno on API_PORT and Vite proxies /api to it.
const apiPort = process.env.API_PORT ?? '3001';

/**
 * main.tsx is a small entry that starts the first screen's API reads, then imports the app shell
 * (src/app/root.tsx) dynamically. This puts `<link rel="modulepreload">` for the shell chunk and its static
 * imports into index.html, so they download in parallel with the entry instead of after it has run.
 */
function preloadAppShell(): Plugin {
  return {
    name: 'preload-app-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((output) => output.type === 'chunk');
        const shell = chunks.find((chunk) => chunk.moduleIds.some((id) => id.endsWith('/src/app/root.tsx')));
        if (!shell) return html;
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
        };
        visit(shell.fileName);
        return [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/**
 * dist/_headers: the security headers a static host (Netlify, Cloudflare Pages) sends with the SPA's pages,
 * the same as the local server's. With VITE_SUPABASE_URL the pages may also connect to that project.
 */
function staticHostHeaders(): Plugin {
  let supabaseUrl: string | undefined;
  return {
    name: 'static-host-headers',
    apply: 'build',
    configResolved(config) {
      supabaseUrl = config.env.VITE_SUPABASE_URL || undefined;
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: await headersFile(supabaseUrl) });
    },
  };
}

/**
 * The installable app: the web app manifest and a service worker (Workbox, generated at build) that
 * precaches the built shell — index.html, every JS and CSS chunk (the lazy screens too) and the icons — so
 * the app opens without a network. The API is never cached: its requests are no precache entry and the
 * navigation fallback (index.html for the SPA's paths) leaves /api alone, so every API answer comes from the
 * network or fails. A new version waits for the player's Reload (registerType 'prompt',
 * src/app/layouts/update-prompt.tsx). No service worker in `npm run dev` (devOptions off).
 */
function installableApp() {
  return VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    includeAssets: ['icons/apple-touch-icon.png'],
    manifest: {
      name: APP_NAME,
      short_name: 'Cricket Bets',
      description: 'Bet on cricket-league matches at fixed 3.0x odds with a rupee wallet.',
      theme_color: '#1a365d',
      background_color: '#ffffff',
      display: 'standalone',
      start_url: '/',
      scope: '/',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,png,webmanifest}'],
      navigateFallback: '/index.html',
      navigateFallbackDenylist: [/^\/api(\/|$)/],
      cleanupOutdatedCaches: true,
    },
    devOptions: { enabled: false },
  });
}

/**
 * `npm run dev` serves a /sw.js that removes itself: a browser that once opened the built app on the same
 * origin keeps its service worker, which would go on serving the old build's shell instead of the dev server.
 */
function noServiceWorkerInDev(): Plugin {
  const script = `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.registration.unregister()
  .then(() => self.clients.matchAll({ type: 'window' }))
  .then((clients) => clients.forEach((client) => client.navigate(client.url)))));`;
  return {
    name: 'no-service-worker-in-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/sw.js', (_request, response) => {
        response.setHeader('Content-Type', 'text/javascript');
        response.setHeader('Cache-Control', 'no-store');
        response.end(script);
      });
    },
  };
}

/** `@/…` is src/…: an import from another area of the SPA names where it lives instead of climbing to it. */
export const srcAlias = { find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) };

export default defineConfig({
  plugins: [react(), preloadAppShell(), staticHostHeaders(), installableApp(), noServiceWorkerInDev()],
  resolve: { alias: [srcAlias] },
  server: {
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // Chakra's theme index builds its default config with `defineConfig({...})` (an identity function) at
      // module level, which keeps every recipe of the library in the bundle although system.ts picks a few.
      treeshake: { manualPureFunctions: ['defineConfig'] },
      output: {
        // The first screen's code in two chunks (plus the route's and the match card's) instead of about twenty: the site is served over
        // HTTP/1.1, where a phone has six connections and each extra request costs a round trip. `boot` is
        // what main.tsx imports (it runs first: the router starts the reads); `shell` is the rest of root.tsx's
        // static imports and the route table's layout routes (index.html preloads it). Modules only other
        // chunks use are split as usual.
        codeSplitting: {
          groups: [
            { name: 'boot', test: /[\\/]src[\\/]main\.tsx$/, priority: 2 },
            { name: 'shell', test: /[\\/]src[\\/]app[\\/](root|layout-routes)\.tsx$/, priority: 1 },
            // The match card and the small Chakra parts it is made of, which Home's and Live match's first screens
            // both show: one request instead of about ten (Live match's first paint waited on each of them).
            {
              name: 'match-card',
              test: /[\\/](src[\\/](features[\\/]matches[\\/]components[\\/]match-(detail-card|state)|components[\\/]team-badge|domain[\\/]teams|components[\\/]ui[\\/]use-error-toast)|@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]components[\\/](card|badge|heading|image)[\\/])/,
              priority: 0,
            },
          ],
        },
      },
    },
  },
});
