/**
 * The local runtime's web server (Deno): the `api` edge function under /api and the built SPA for every
 * other path, on one origin. Started by scripts/start.js, which owns its lifetime: when our stdin
 * closes (the parent is gone), we exit, so this process never outlives `npm start`.
 *
 * Env: PORT (default 3000), HOST (default 127.0.0.1), STATIC_DIR (the built SPA; none in dev mode).
 */
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { serveStatic } from 'hono/deno';
import { secureHeaders } from 'hono/secure-headers';
import '../edge-functions/_shared/background-errors.ts';
import { createApp } from '../edge-functions/api/app.ts';

const port = Number(Deno.env.get('PORT') ?? 3000);
const hostname = Deno.env.get('HOST') ?? '127.0.0.1';
const staticDir = Deno.env.get('STATIC_DIR');

const api = createApp();
const site = new Hono();
if (staticDir) {
  site.use(
    compress(),
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        // Chakra (Emotion) injects <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
      xFrameOptions: 'DENY',
      // Same-origin writes must carry our Origin (the API refuses `Origin: null`); nothing leaks elsewhere.
      referrerPolicy: 'same-origin',
    }),
  );
  // Hashed build assets never change; everything else (index.html) is revalidated.
  site.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.ok) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  site.use('*', serveStatic({ root: staticDir }));
  site.get('*', serveStatic({ root: staticDir, path: 'index.html' }));
}

const isApi = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

Deno.serve(
  { port, hostname, onListen: (address) => console.log(JSON.stringify({ level: 'info', msg: 'listening', port: address.port })) },
  // `info` (the remote address) lets the API rate-limit by client IP (hono/deno getConnInfo).
  (request, info) => (isApi(new URL(request.url).pathname) ? api.fetch(request, info) : site.fetch(request)),
);

// Exit when the parent closes our stdin (see ARCHITECTURE.md §8, "Signals").
(async () => {
  const reader = Deno.stdin.readable.getReader();
  while (!(await reader.read()).done) { /* drain */ }
  Deno.exit(0);
})();
