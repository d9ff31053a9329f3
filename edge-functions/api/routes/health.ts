import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { Sql } from '@shared/db.ts';
import { UNAVAILABLE_RETRY_SECONDS } from '@shared/errors.ts';
import type { MatchFeed } from '@shared/match-feed.ts';
import { router } from '../openapi.ts';

const part = z.enum(['ok', 'unavailable']);
const healthEntity = z.object({ status: z.enum(['ok', 'degraded']), database: part, live_updates: part });

/** For the OpenAPI document (the route itself is a plain Hono route below). */
const healthRoute = createRoute({
  operationId: 'getHealth',
  method: 'get',
  path: '/',
  tags: ['health'],
  summary: 'Which parts work: a real database query and the live-update LISTEN (answered within a second)',
  responses: {
    200: {
      description: 'Up (status degraded while live updates reconnect)',
      content: { 'application/json': { schema: healthEntity } },
    },
    503: {
      description: 'Database unavailable or not answering within half a second (with Retry-After)',
      content: { 'application/json': { schema: healthEntity } },
    },
  },
});

/**
 * How long a health check waits for each part: the database's answer to a query, and the live feed's
 * LISTEN to be in place (it starts on first use). A database that does not answer in time is unavailable
 * for the probe that asks (a load balancer, `npm start`), which must hear so within a second, not when the
 * database comes back.
 */
const PROBE_TIMEOUT_MS = 500;

/** Whether `work` settles within PROBE_TIMEOUT_MS without failing. Whatever it is, it may go on after. */
async function within(work: Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(resolve, PROBE_TIMEOUT_MS, false))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// A query left waiting by a stalled database runs once it answers: `select 1` costs it nothing.
const databaseAnswers = (sql: Sql) => within(sql`select 1`);

async function feedListening(feed: MatchFeed): Promise<boolean> {
  return feed.isLive() || ((await within(feed.ready())) && feed.isLive());
}

/**
 * `GET /api/health`, within a second whatever the database does: 200 when it answers a real query in time,
 * else 503 with Retry-After; either way the body names each part: `database`, and `live_updates` (this
 * process's LISTEN for match changes).
 */
export function healthRoutes(sql: Sql, feed: MatchFeed) {
  const app = router();
  app.openAPIRegistry.registerPath(healthRoute);
  return app.get('/', async (c) => {
    const [database, live] = await Promise.all([databaseAnswers(sql), feedListening(feed)]);
    const body = {
      status: database && live ? 'ok' : 'degraded',
      database: database ? 'ok' : 'unavailable',
      live_updates: live ? 'ok' : 'unavailable',
    } as const;
    if (database) return c.json(body);
    c.header('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
    return c.json(body, 503);
  });
}
