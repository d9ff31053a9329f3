/**
 * `GET /api/live/matches[?id=N]`: a Server-Sent Events stream of match changes (start, live score,
 * settlement, abandonment), for the local runtime; on Supabase the SPA uses Realtime instead.
 * Events: `match` with the match as the API answers it (GET /api/matches/{id}), exactly as the database
 * notified it. A comment line every 15 s keeps proxies from closing the stream.
 * Match data is public (teams and matches are readable by anyone), so the stream needs no session.
 * At most `config.liveMaxStreams` (LIVE_MAX_STREAMS, default 2000) streams are open per process at once;
 * beyond that the answer is 503 {"message":"Too many live connections"} (the SPA then polls).
 */
import { createRoute } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { MatchFeed, MatchUpdate } from '../../_shared/match-feed.ts';
import type { AppEnv } from '../context.ts';

const HEARTBEAT_MS = 15_000;

/** For the OpenAPI document (the route itself is a plain Hono route: its answer is a stream). */
export const liveRoute = createRoute({
  method: 'get', path: '/live/matches', tags: ['matches'], summary: 'Server-Sent Events of match changes',
  request: { query: z.object({ id: z.coerce.number().int().positive().optional() }) },
  responses: {
    200: {
      description: 'text/event-stream: `event: match` with the match as data (as GET /api/matches/{id} answers it); heartbeats every 15 s',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    503: {
      description: 'Too many live connections on this server',
      content: { 'application/json': { schema: z.object({ message: z.string() }) } },
    },
  },
});

export const TOO_MANY_STREAMS = 'Too many live connections';

export function liveRoutes(feed: MatchFeed) {
  /** Streams open now in this process (one app per process). */
  let open = 0;
  return new Hono<AppEnv>().get('/live/matches', (c) => {
    if (open >= c.get('config').liveMaxStreams) return c.json({ message: TOO_MANY_STREAMS }, 503);
    open += 1;
    const only = Number(c.req.query('id')) || undefined;
    return streamSSE(c, async (stream) => {
      const queue: MatchUpdate[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = feed.subscribe((update) => {
        if (only !== undefined && update.id !== only) return;
        queue.push(update);
        wake?.();
      });
      const heartbeat = setInterval(() => {
        stream.write(': heartbeat\n\n').catch(() => {});
      }, HEARTBEAT_MS);
      stream.onAbort(() => {
        unsubscribe();
        clearInterval(heartbeat);
        wake?.();
      });
      try {
        await feed.ready();
        await stream.write(': connected\n\n');
        while (!stream.aborted) {
          const update = queue.shift();
          if (update) {
            await stream.writeSSE({ event: 'match', data: update.data });
          } else {
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
          }
        }
      } finally {
        open -= 1;
        unsubscribe();
        clearInterval(heartbeat);
      }
    });
  });
}
