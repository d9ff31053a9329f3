/**
 * The local runtime's web server (Deno): the `api` edge function under /api and the built SPA for every
 * other path, on one origin. scripts/start.js runs one per core (API_WORKERS), all on the same port
 * (SO_REUSEPORT: the kernel spreads connections over them), each with its own database pool and live feed,
 * and owns their lifetime: when our stdin closes (the parent is gone), we exit, so this process never
 * outlives `npm start`. SIGTERM (or SIGINT) stops taking connections, lets the requests in flight finish
 * (at most DRAIN_MS) and exits.
 *
 * Env: PORT (default 3000), HOST (default 127.0.0.1; beyond loopback only with PAYMENT_WEBHOOK_SECRET and
 * DEVICE_COOKIE_SECRET),
 * STATIC_DIR (the built SPA; none in dev mode), DATABASE_POOL_MAX (this process's pool, set by start.js
 * within PostgreSQL's limit).
 */
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { serveStatic } from 'hono/deno';
import '../edge-functions/_shared/background-errors.ts';
import { createApp } from '../edge-functions/api/app.ts';
import { exposureRefusal, exposureSettings } from './lib/exposure.js';
import { IMMUTABLE_ASSETS, siteSecurityHeaders } from './lib/site-headers.ts';

const port = Number(Deno.env.get('PORT') ?? 3000);
const hostname = Deno.env.get('HOST') ?? '127.0.0.1';
const staticDir = Deno.env.get('STATIC_DIR');

const refusal = exposureRefusal(exposureSettings(hostname, Deno.env.toObject()));
if (refusal) {
  console.error(JSON.stringify({ level: 'error', msg: refusal }));
  Deno.exit(1);
}

const api = createApp();
const site = new Hono();
if (staticDir) {
  // The same headers a static host sends from the build's _headers file (vite.config.ts writes it).
  site.use(compress(), siteSecurityHeaders(Deno.env.get('VITE_SUPABASE_URL') || undefined));
  // Hashed build assets never change; everything else (index.html) is revalidated.
  site.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.ok) c.header('Cache-Control', IMMUTABLE_ASSETS);
  });
  site.use('*', serveStatic({ root: staticDir }));
  site.get('*', serveStatic({ root: staticDir, path: 'index.html' }));
}

const isApi = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/');

/** How long a stopping server waits for requests in flight (live-update streams are not waited for). */
const DRAIN_MS = 10_000;
/** Requests whose answer is not ready yet; a stream counts until its headers are sent. */
let inFlight = 0;

const server = Deno.serve(
  {
    port,
    hostname,
    reusePort: true,
    onListen: (address) => console.log(JSON.stringify({ level: 'info', msg: 'listening', port: address.port })),
  },
  // `info` (the remote address) lets the API rate-limit by client IP (hono/deno getConnInfo).
  async (request, info) => {
    inFlight += 1;
    try {
      return await (isApi(new URL(request.url).pathname) ? api.fetch(request, info) : site.fetch(request));
    } finally {
      inFlight -= 1;
    }
  },
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function drainAndExit(signal: string) {
  console.log(JSON.stringify({ level: 'info', msg: 'stopping', signal, in_flight: inFlight }));
  // No new connections from now on. The shutdown settles once every answer is written, but an open
  // live-update stream never ends by itself: wait for the answers being made, then briefly for the writes.
  const shutdown = server.shutdown();
  const deadline = Date.now() + DRAIN_MS;
  while (inFlight > 0 && Date.now() < deadline) await sleep(50);
  await Promise.race([shutdown, sleep(Math.min(500, deadline - Date.now()))]);
  Deno.exit(0);
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) Deno.addSignalListener(signal, () => void drainAndExit(signal));

// Exit when the parent closes our stdin (README "Operations", Stopping): we never outlive npm start.
(async () => {
  const reader = Deno.stdin.readable.getReader();
  while (!(await reader.read()).done) {
    /* drain */
  }
  Deno.exit(0);
})();
