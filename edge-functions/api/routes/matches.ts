/** Spec §7.2: GET /api/matches?status=…, GET /api/matches/{id}. Public reads (matches are readable by anon). */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { matchEntity } from '../../../src/domain/entities.ts';
import { MATCH_STATUSES } from '../../../src/domain/limits.ts';
import { one, withCaller } from '../context.ts';
import { errors, idParams, json, router } from '../openapi.ts';
import { getMatch, listMatches } from '../queries.ts';

export const MATCH_NOT_FOUND = 'Match not found';

export const matchesQuery = z.object({
  status: z.enum(MATCH_STATUSES, { error: 'Status must be one of upcoming, live, completed' }).optional(),
});

const listRoute = createRoute({
  method: 'get', path: '/matches', tags: ['matches'], summary: 'Matches by start time, optionally of one status',
  request: { query: matchesQuery },
  responses: { 200: json(z.array(matchEntity), 'Matches with team1 and team2'), ...errors(400) },
});

const getRoute = createRoute({
  method: 'get', path: '/matches/{id}', tags: ['matches'], summary: 'One match',
  request: { params: idParams },
  responses: { 200: json(matchEntity, 'The match with team1 and team2'), ...errors(400, 404) },
});

export function matchRoutes() {
  const app = router();
  app.openapi(listRoute, async (c) => {
    const { status } = c.req.valid('query');
    return c.json(await withCaller(c, (db) => listMatches(db.tx, { status })), 200);
  });
  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    const match = await withCaller(c, (db) => getMatch(db.tx, id));
    return c.json(one(match ? [match] : [], MATCH_NOT_FOUND), 200);
  });
  return app;
}
