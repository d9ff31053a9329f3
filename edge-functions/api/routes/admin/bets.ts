/** Bets for admins (/api/admin/bets): the bets placed on a match, newest first, counted and with the stake at risk. */
import { createRoute } from '@hono/zod-openapi';
import { betEntity } from '@/domain/entities.ts';
import { bodyOf, query } from '../../context.ts';
import { errors, idParams, page, router } from '../../openapi.ts';
import { pageOf, pageQuery, sendPage } from '../../paging.ts';
import { betPage, MATCH_NOT_FOUND, matchById } from '../../queries.ts';

const betsRoute = createRoute({
  operationId: 'adminListMatchBets',
  method: 'get',
  path: '/match/{id}',
  tags: ['admin: matches'],
  summary: 'Bets placed on a match, newest first',
  request: { params: idParams, query: pageQuery },
  responses: {
    200: page(betEntity, 'Bets with match and team', { counted: true, staked: true }),
    ...errors(400, 401, 403, 404),
  },
});

export function adminBetRoutes() {
  const app = router();
  app.openapi(betsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const paging = pageOf(c.req.valid('query'));
    const [match, bets] = await query(c, 'reader', (q) => [matchById(q, id), betPage(q, paging, { matchId: id })]);
    bodyOf(match, MATCH_NOT_FOUND);
    return sendPage<typeof betsRoute>(c, bets);
  });
  return app;
}
