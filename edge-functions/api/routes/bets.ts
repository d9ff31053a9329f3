/**
 * The caller's bets (/api/bets, signed-in players): GET (newest first) and POST.
 *
 * Odds and potential_win from the client are only compared: app.place_bet takes the match's current price of
 * the team backed and round(amount × odds), and refuses values that disagree (409 'Odds have changed'). The
 * answer is the new bet with its match and team, built in the same statement. A money write: optional
 * Idempotency-Key (idempotency.ts).
 */
import { createRoute } from '@hono/zod-openapi';
import { betEntity } from '@/domain/entities.ts';
import { betSchema } from '@/domain/schemas.ts';
import { query } from '../context.ts';
import { answerMoneyWrite } from '../idempotency.ts';
import { errors, idempotencyHeaders, json, jsonBody, page, router } from '../openapi.ts';
import { pageOf, pageQuery, sendPage } from '../paging.ts';
import { betPage } from '../queries.ts';

const listRoute = createRoute({
  operationId: 'listBets',
  method: 'get',
  path: '/',
  tags: ['bets'],
  summary: "The caller's bets, newest first",
  request: { query: pageQuery },
  responses: { 200: page(betEntity, 'Bets with match (team1, team2) and team'), ...errors(400, 401) },
});

const placeRoute = createRoute({
  operationId: 'placeBet',
  method: 'post',
  path: '/',
  tags: ['bets'],
  summary:
    "Place a bet at the match's current price of the team backed (`odds`, `potential_win`: the price the player " +
    "was shown; when it is no longer the match's, 409 `Odds have changed` and nothing is written)",
  request: {
    headers: idempotencyHeaders,
    body: jsonBody(betSchema, { match_id: 1, team_id: 1, amount: 1000, odds: 1.85, potential_win: 1850 }),
  },
  responses: {
    201: json(betEntity, 'The bet (or, for a repeated Idempotency-Key, the first answer)'),
    ...errors(400, 401, 403, 404, 409),
  },
});

export function betRoutes() {
  const app = router('user');

  app.openapi(listRoute, async (c) => {
    const [rows] = await query(c, 'reader', (q) => [betPage(q, pageOf(c.req.valid('query')), {})]);
    return sendPage<typeof listRoute>(c, rows);
  });

  app.openapi(placeRoute, (c) => {
    const input = c.req.valid('json');
    return answerMoneyWrite<typeof placeRoute>(
      c,
      { scope: 'POST /api/bets', request: input, status: 201 },
      (q) => q`
      select app.bet_json(b)::text as body
      from app.place_bet(${input.match_id}, ${input.team_id}, ${input.amount},
                         ${input.odds ?? null}, ${input.potential_win ?? null}) b`,
    );
  });

  return app;
}
