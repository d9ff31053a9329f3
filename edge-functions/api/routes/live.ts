/**
 * `GET /api/live/matches[?id=N]`: a Server-Sent Events stream of match changes (start, live score,
 * suspension, settlement, abandonment), for the local runtime; on Supabase the SPA uses Realtime Broadcast.
 *
 * - `event: match`, `id: <process>-<sequence>`, data: the match as GET /api/matches/{id} answers it, exactly
 *   as the database notified it (the frame is built once per event for every client: match-feed.ts).
 * - On reconnect the browser sends `Last-Event-ID`: the events it missed are replayed, none twice; when they
 *   cannot be told (another server process, too long ago, the LISTEN was down), `event: gap` tells the
 *   client to refetch once.
 * - Back-pressure: a client that falls more than LIVE_CLIENT_QUEUE events behind is dropped (its stream
 *   ends; the browser reconnects and resumes with Last-Event-ID), never buffered without bound.
 * - A comment line every 15 s keeps proxies from closing the stream.
 * - A signed-in player's stream also carries the results of their own bets as their match is settled
 *   (`event: result`, data: the match, the outcome, the amount and the team backed: player-results.ts), and
 *   nobody else's: the stream looks up its session once, when it opens, and ends as soon as that session
 *   ends (session-streams.ts); the browser's reconnection then carries what its cookie allows now.
 *
 * Match data is public (teams and matches are readable by anyone), so the stream needs no session, and
 * without one it makes no database read. At most `config.liveMaxStreams` (LIVE_MAX_STREAMS, default 2000) streams are open
 * per process at once; beyond that the answer is 503 {"message":"Too many live connections"} (the SPA then
 * polls the public match every few seconds and opens the stream again later).
 */
import { createRoute } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { MatchEvent, MatchFeed } from '@shared/match-feed.ts';
import { HttpError, toHttpError } from '@shared/errors.ts';
import { realtimeToken } from '@shared/realtime-token.ts';
import { NOT_AUTHENTICATED, queryAs, type Ctx } from '../context.ts';
import { errors, json, router, SESSION_OPTIONAL } from '../openapi.ts';
import type { PlayerResults } from '../player-results.ts';
import type { SessionStreams } from '../session-streams.ts';

const HEARTBEAT_MS = 15_000;
const GAP_FRAME = 'event: gap\ndata: {}\n\n';

/** For the OpenAPI document (the route itself is a plain Hono route: its answer is a stream). */
const streamRoute = createRoute({
  operationId: 'streamLiveMatches',
  security: SESSION_OPTIONAL,
  method: 'get',
  path: '/matches',
  tags: ['matches'],
  summary: 'Server-Sent Events of match changes',
  request: {
    query: z.object({ id: z.coerce.number().int().positive().optional() }),
    headers: z.object({
      'last-event-id': z
        .string()
        .optional()
        .describe('Sent by the browser on reconnect: the missed events are replayed'),
    }),
  },
  responses: {
    200: {
      description:
        'text/event-stream: `event: match` (`id:` line; data: the match as GET /api/matches/{id} answers it), ' +
        '`event: gap` (refetch once: missed events cannot be replayed), and for a signed-in player `event: result` ' +
        '(data: {match_id, match, outcome: won | lost | refunded, amount, team}: their own bets, as their match is settled); ' +
        'heartbeats every 15 s',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    503: {
      description: 'Too many live connections on this server (with Retry-After)',
      content: { 'application/json': { schema: z.object({ message: z.string() }) } },
    },
  },
});

export const TOO_MANY_STREAMS = 'Too many live connections';
export const REALTIME_NOT_CONFIGURED = 'Realtime is not configured';

const tokenRoute = createRoute({
  operationId: 'getLiveToken',
  method: 'get',
  path: '/token',
  tags: ['matches'],
  summary:
    'A token (5 minutes; the SPA renews it) with which the signed-in player joins their private Supabase Realtime topic of results, user:{id}',
  responses: {
    200: json(z.object({ token: z.string(), expires_at: z.string() }), 'The token and when it expires'),
    ...errors(401, 404),
  },
});

/** The signed-in user of a request and the session it came with. */
interface Caller {
  userId: number;
  sessionId: number;
}

/** The signed-in caller of the stream's request, or null (no session, or one that has ended). */
async function streamCaller(c: Ctx): Promise<Caller | null> {
  if (!c.get('tokenHash')) return null;
  try {
    const [[session]] = await queryAs(c, 'user', 'reader', (q) => [
      q`select (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'session_id')::bigint as id`,
    ]);
    return { userId: c.get('userId')!, sessionId: session.id as number };
  } catch (error) {
    // a session that has ended (401) or a banned user (403) gets the public stream; anything else is an answer
    const status = toHttpError(error)?.status;
    if (status === 401 || status === 403) return null;
    throw error;
  }
}

export function liveRoutes(feed: MatchFeed, results: PlayerResults, sessions: SessionStreams) {
  // The stream is public (a session only adds the caller's own results); the token is for signed-in players.
  const token = router('user');
  token.openapi(tokenRoute, async (c) => {
    const caller = await streamCaller(c);
    if (caller === null) throw new HttpError(401, NOT_AUTHENTICATED);
    const secret = c.get('config').realtimeJwtSecret;
    if (!secret) throw new HttpError(404, REALTIME_NOT_CONFIGURED);
    return c.json(realtimeToken(caller.userId, secret), 200);
  });
  const app = router().route('/', token);
  app.openAPIRegistry.registerPath(streamRoute);

  /** Streams open now in this process (one app per process). */
  let open = 0;
  return app.get('/matches', async (c) => {
    const { liveMaxStreams, liveClientQueue } = c.get('config');
    // a full server: try again later (the SPA polls the public match meanwhile)
    if (open >= liveMaxStreams) return c.json({ message: TOO_MANY_STREAMS }, 503, { 'Retry-After': '30' });
    open += 1;
    let caller: Caller | null;
    try {
      caller = await streamCaller(c);
    } catch (error) {
      open -= 1;
      throw error;
    }
    const only = Number(c.req.query('id')) || undefined;
    const lastEventId = c.req.header('last-event-id');
    return streamSSE(c, async (stream) => {
      // match events, gaps, and this player's result frames, written in the order they came
      const queue: Array<MatchEvent | 'gap' | Uint8Array> = [];
      let wake: (() => void) | undefined;
      const enqueue = (event: MatchEvent | 'gap' | Uint8Array) => {
        if (event !== 'gap' && !(event instanceof Uint8Array) && only !== undefined && event.matchId !== only) return;
        queue.push(event);
        if (queue.length > liveClientQueue) stream.abort(); // too slow: dropped, it resumes on reconnect
        wake?.();
      };
      // Subscribe before looking back, so nothing falls between the replay and the live events.
      const unsubscribeMatches = feed.subscribe(enqueue);
      const unsubscribeResults = caller === null ? () => {} : results.add(caller.userId, enqueue);
      // the session ends: so does this stream (the browser reconnects with what its cookie allows now)
      const forgetSession = caller === null ? () => {} : sessions.add(caller.sessionId, () => stream.abort());
      const unsubscribe = () => {
        unsubscribeMatches();
        unsubscribeResults();
        forgetSession();
      };
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
        // The newest event this client has (replayed ones included): live events up to it are not sent again.
        let newest = 0;
        const missed = feed.since(lastEventId);
        if (missed === 'gap') {
          await stream.write(GAP_FRAME);
        } else {
          for (const event of missed) if (only === undefined || event.matchId === only) await stream.write(event.frame);
          newest = missed.at(-1)?.seq ?? 0;
        }
        while (!stream.aborted) {
          const next = queue.shift();
          if (next === 'gap') {
            await stream.write(GAP_FRAME);
          } else if (next instanceof Uint8Array) {
            await stream.write(next);
          } else if (next) {
            if (next.seq > newest) await stream.write(next.frame);
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
