import { createRoute } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../../_shared/db.ts';
import { UNAVAILABLE_RETRY_SECONDS } from '../../_shared/errors.ts';
import type { MatchFeed } from '../../_shared/match-feed.ts';

const part = z.enum(['ok', 'unavailable']);
const healthEntity = z.object({ status: z.enum(['ok', 'degraded']), database: part, live_updates: part });

/** For the OpenAPI document (the route itself is a plain Hono route below). */
export const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  tags: ['health'],
  summary: 'Which parts work: a real database query and the live-update LISTEN',
  responses: {
    200: {
      description: 'Up (status degraded while live updates reconnect)',
      content: { 'application/json': { schema: healthEntity } },
    },
    503: {
      description: 'Database unavailable (with Retry-After)',
      content: { 'application/json': { schema: healthEntity } },
    },
  },
});

/** How long a health check waits for the live feed's LISTEN to be in place (it starts on first use). */
const LISTEN_WAIT_MS = 2_000;

async function databaseAnswers(sql: Sql): Promise<boolean> {
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  }
}

async function feedListening(feed: MatchFeed): Promise<boolean> {
  if (feed.isLive()) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([feed.ready(), new Promise((resolve) => (timer = setTimeout(resolve, LISTEN_WAIT_MS)))]);
  clearTimeout(timer);
  return feed.isLive();
}

/**
 * `GET /api/health`: 200 when the database answers a real query, else 503 with Retry-After; either way
 * the body names each part: `database`, and `live_updates` (this process's LISTEN for match changes).
 */
export function healthRoutes(sql: Sql, feed: MatchFeed) {
  return new Hono().get('/health', async (c) => {
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
