/**
 * Matches: GET /api/matches?status=…, GET /api/matches/{id}. Public reads (matches are readable by anon),
 * the same for every caller and kept by shared caches for a few seconds (`Cache-Control: public`), with an
 * ETag (304 for a matching If-None-Match), served from memory while no match has changed (public-reads.ts).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { matchEntity } from '../../../src/domain/entities.ts';
import { MATCH_STATUSES } from '../../../src/domain/limits.ts';
import type { PublicMatchReads } from '../public-reads.ts';
import { bodyOf, query } from '../context.ts';
import { errors, idParams, notModified, router, sharedJson } from '../openapi.ts';
import { matchById, matchList } from '../queries.ts';

export const MATCH_NOT_FOUND = 'Match not found';

export const matchesQuery = z.object({
  status: z.enum(MATCH_STATUSES, { error: 'Status must be one of upcoming, live, completed' }).optional(),
});

const listRoute = createRoute({
  operationId: 'listMatches',
  method: 'get',
  path: '/matches',
  tags: ['matches'],
  summary: 'Matches by start time, optionally of one status',
  request: { query: matchesQuery },
  responses: {
    200: sharedJson(z.array(matchEntity), 'Matches with team1 and team2'),
    ...notModified,
    ...errors(400),
  },
});

const getRoute = createRoute({
  operationId: 'getMatch',
  method: 'get',
  path: '/matches/{id}',
  tags: ['matches'],
  summary: 'One match',
  request: { params: idParams },
  responses: {
    200: sharedJson(matchEntity, 'The match with team1 and team2'),
    ...notModified,
    ...errors(400, 404),
  },
});

export function matchRoutes(reads: PublicMatchReads) {
  const app = router();
  app.openapi(listRoute, (c) => {
    const { status } = c.req.valid('query');
    return reads.answer(c, `list:${status ?? 'all'}`, async () =>
      bodyOf((await query(c, 'public', 'reader', (q) => [matchList(q, { status })]))[0]),
    );
  });
  app.openapi(getRoute, (c) => {
    const { id } = c.req.valid('param');
    return reads.answer(c, `match:${id}`, async () =>
      bodyOf((await query(c, 'public', 'reader', (q) => [matchById(q, id)]))[0], MATCH_NOT_FOUND),
    );
  });
  return app;
}
