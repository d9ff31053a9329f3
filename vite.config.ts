import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { headersFile } from './scripts/lib/site-headers.ts';

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
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
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

export default defineConfig({
  plugins: [react(), preloadAppShell(), staticHostHeaders()],
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
        // The first screen's code in two chunks (plus the route's) instead of about twenty: the site is served over
        // HTTP/1.1, where a phone has six connections and each extra request costs a round trip. `boot` is
        // what main.tsx imports (it runs first: the router starts the reads); `shell` is the rest of root.tsx's
        // static imports and the route table's layout routes (index.html preloads it). Modules only other
        // chunks use are split as usual.
        codeSplitting: {
          groups: [
            { name: 'boot', test: /[\\/]src[\\/]main\.tsx$/, priority: 2 },
            { name: 'shell', test: /[\\/]src[\\/]app[\\/](root|layout-routes)\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
});
