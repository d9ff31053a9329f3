import { createRoute } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../../_shared/db.ts';

const healthEntity = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unavailable']) });

/** For the OpenAPI document (the route itself is a plain Hono route below). */
export const healthRoute = createRoute({
  method: 'get', path: '/health', tags: ['health'], summary: 'Liveness with a real database query',
  responses: {
    200: { description: 'Up', content: { 'application/json': { schema: healthEntity } } },
    503: { description: 'Database unavailable', content: { 'application/json': { schema: healthEntity } } },
  },
});

/** `GET /api/health`: 200 after a real query, 503 when Postgres does not answer. */
export function healthRoutes(sql: Sql) {
  return new Hono().get('/health', async (c) => {
    try {
      await sql`select 1`;
      return c.json({ status: 'ok', database: 'ok' });
    } catch {
      return c.json({ status: 'degraded', database: 'unavailable' }, 503);
    }
  });
}
