/**
 * Matches (/api/matches): GET /api/matches?status=…, GET /api/matches/{id}. Public reads (matches are
 * readable by anon), the same for every caller and kept by shared caches for a few seconds
 * (`Cache-Control: public`), with an ETag (304 for a matching If-None-Match), served from memory while no
 * match has changed (public-reads.ts).
 *
 * GET /api/matches/{id}/position, signed-in players only: the side the caller backs on a match (a player
 * bets on one team of a match only) and their stake on it.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { matchEntity, matchPositionEntity } from '@/domain/entities.ts';
import type { PublicMatchReads } from '../public-reads.ts';
import { answer, bodyOf, query } from '../context.ts';
import { errors, idParams, json, notModified, router, sharedJson } from '../openapi.ts';
import { MATCH_NOT_FOUND, matchById, matchesQuery, matchList } from '../queries.ts';

const listRoute = createRoute({
  operationId: 'listMatches',
  method: 'get',
  path: '/',
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
  path: '/{id}',
  tags: ['matches'],
  summary: 'One match',
  request: { params: idParams },
  responses: {
    200: sharedJson(matchEntity, 'The match with team1 and team2'),
    ...notModified,
    ...errors(400, 404),
  },
});

const positionRoute = createRoute({
  operationId: 'getMatchPosition',
  method: 'get',
  path: '/{id}/position',
  tags: ['bets'],
  summary:
    "The caller's side of a match (one team per player per match, fixed by their first bet) and their stake on it",
  request: { params: idParams },
  responses: {
    200: json(matchPositionEntity, 'The team backed (null before a bet) and the total staked'),
    ...errors(400, 401, 404),
  },
});

export function matchRoutes(reads: PublicMatchReads) {
  const app = router();
  app.openapi(listRoute, (c) => {
    const { status } = c.req.valid('query');
    return reads.answer<typeof listRoute>(c, `list:${status ?? 'all'}`, async () =>
      bodyOf((await query(c, 'reader', (q) => [matchList(q, { status })]))[0]),
    );
  });
  app.openapi(getRoute, (c) => {
    const { id } = c.req.valid('param');
    return reads.answer<typeof getRoute>(c, `match:${id}`, async () =>
      bodyOf((await query(c, 'reader', (q) => [matchById(q, id)]))[0], MATCH_NOT_FOUND),
    );
  });
  // The caller's own position: the one route of the resource behind the sign-in guard.
  const position = router('user');
  position.openapi(positionRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer<typeof positionRoute>(c, 'service', (q) => q`select app.match_position(${id})::text as body`);
  });

  return app.route('/', position);
}
