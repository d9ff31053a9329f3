/**
 * Match administration: list, detail, bets of a match, create, start, live update, declare winner,
 * plus PATCH /api/admin/matches/{id}/abandon (void: bets cancelled and refunded), PATCH
 * /api/admin/matches/{id}/odds (the price of each side) and GET /api/admin/teams.
 * Each write is one app.* function (admin re-checked there, audited there).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { betEntity, matchEntity, teamEntity, type Match } from '../../../../src/domain/entities.ts';
import {
  createMatchSchema,
  declareWinnerSchema,
  matchOddsSchema,
  updateLiveSchema,
} from '../../../../src/domain/schemas.ts';
import { answer, bodyOf, query, sendJson, type Ctx, type DatabaseAnswer } from '../../context.ts';
import type { Sql, Statement } from '../../../_shared/db.ts';
import type { SettlementWorker } from '../../../_shared/settlement-worker.ts';
import { moneyWrite, type MoneyWrite } from '../../idempotency.ts';
import { errors, idempotencyHeaders, idParams, json, jsonBody, page, router } from '../../openapi.ts';
import { pageOf, pageQuery, sendPage } from '../../paging.ts';
import { betPage, matchById, matchList, teamList } from '../../queries.ts';
import { MATCH_NOT_FOUND, matchesQuery } from '../matches.ts';

const tags = ['admin: matches'];
const adminErrors = [401, 403] as const;

const listRoute = createRoute({
  operationId: 'adminListMatches',
  method: 'get',
  path: '/matches',
  tags,
  summary: 'All matches, newest start first',
  request: { query: matchesQuery },
  responses: { 200: json(z.array(matchEntity), 'Matches'), ...errors(400, ...adminErrors) },
});
const getRoute = createRoute({
  operationId: 'adminGetMatch',
  method: 'get',
  path: '/matches/{id}',
  tags,
  summary: 'One match',
  request: { params: idParams },
  responses: { 200: json(matchEntity, 'The match'), ...errors(400, ...adminErrors, 404) },
});
const betsRoute = createRoute({
  operationId: 'adminListMatchBets',
  method: 'get',
  path: '/bets/match/{id}',
  tags,
  summary: 'Bets placed on a match, newest first',
  request: { params: idParams, query: pageQuery },
  responses: {
    200: page(betEntity, 'Bets with match and team', { counted: true, staked: true }),
    ...errors(400, ...adminErrors, 404),
  },
});
const teamsRoute = createRoute({
  operationId: 'adminListTeams',
  method: 'get',
  path: '/teams',
  tags,
  summary: 'The teams',
  responses: { 200: json(z.array(teamEntity), 'Teams'), ...errors(...adminErrors) },
});
const createMatchRoute = createRoute({
  operationId: 'adminCreateMatch',
  method: 'post',
  path: '/matches',
  tags,
  summary: 'Create an upcoming match (a `status` in the body is ignored)',
  request: {
    body: jsonBody(createMatchSchema, {
      team1_id: 1,
      team2_id: 2,
      start_time: '2026-12-01T19:30:00+05:30',
      match_type: 't20',
      venue: 'Wankhede Stadium, Mumbai',
    }),
  },
  responses: { 201: json(matchEntity, 'The new match'), ...errors(400, ...adminErrors, 404, 409) },
});
const startRoute = createRoute({
  operationId: 'adminStartMatch',
  method: 'patch',
  path: '/matches/{id}/start',
  tags,
  summary: 'Start an upcoming match',
  request: { params: idParams },
  responses: { 200: json(matchEntity, 'The live match'), ...errors(400, ...adminErrors, 404, 409) },
});
const updateLiveRoute = createRoute({
  operationId: 'adminUpdateLive',
  method: 'patch',
  path: '/matches/{id}/update-live',
  tags,
  summary:
    'Update scores (runs/wickets), innings, over and the team batting first of a live match; in the second innings a ' +
    'passed target, ten wickets or the last over closes betting (latched)',
  request: {
    params: idParams,
    body: jsonBody(updateLiveSchema, { team1_score: '145/3', current_innings: 1, current_over: 16.4 }),
  },
  responses: { 200: json(matchEntity, 'The match'), ...errors(400, ...adminErrors, 404, 409) },
});
const oddsRoute = createRoute({
  operationId: 'adminSetMatchOdds',
  method: 'patch',
  path: '/matches/{id}/odds',
  tags,
  summary:
    'Set the price (decimal odds) of either side of an upcoming or live match, or both; bets placed keep theirs, ' +
    'a bet sent with the old price is a 409 `Odds have changed`',
  request: { params: idParams, body: jsonBody(matchOddsSchema, { team1_odds: 1.85, team2_odds: 2.1 }) },
  responses: {
    200: json(matchEntity, 'The match with its prices'),
    ...errors(400, ...adminErrors, 404, 409),
  },
});
const declareRoute = createRoute({
  operationId: 'adminDeclareWinner',
  method: 'patch',
  path: '/matches/{id}/declare-winner',
  tags,
  summary:
    'Declare the winner of a live match (result text is computed by the server); its bets settle in batches right after ' +
    '(`settlement` in the answer and the live events: state, settled, total)',
  request: {
    params: idParams,
    headers: idempotencyHeaders,
    body: jsonBody(declareWinnerSchema, { winning_team_id: 1, result: 'Won by 5 wickets' }),
  },
  responses: {
    200: json(matchEntity, 'The completed match'),
    ...errors(400, ...adminErrors, 404, 409),
  },
});
const abandonRoute = createRoute({
  operationId: 'adminAbandonMatch',
  method: 'patch',
  path: '/matches/{id}/abandon',
  tags,
  summary: 'Void an upcoming or live match: its bets are cancelled and their stakes refunded in batches right after',
  request: { params: idParams, headers: idempotencyHeaders },
  responses: {
    200: json(matchEntity, 'The abandoned (completed) match'),
    ...errors(400, ...adminErrors, 404, 409),
  },
});

/** The statement of a match-changing app.* function (`change` returns the match row): the match as answered. */
const changedMatch = (change: (q: Sql) => Statement) => (q: Sql) =>
  q`select app.match_json(m)::text as body from ${change(q)} m`;

/** Runs a match-changing app.* function and answers the match with its teams. */
export function changeMatch(c: Ctx, change: (q: Sql) => Statement, status: 200 | 201 = 200): Promise<DatabaseAnswer> {
  return answer(c, 'admin', 'service', changedMatch(change), { status });
}

export function adminMatchRoutes(settlement: SettlementWorker) {
  const app = router();

  app.openapi(listRoute, (c) => {
    const { status } = c.req.valid('query');
    return answer(c, 'admin', 'reader', (q) => matchList(q, { status, newestFirst: true }));
  });
  app.openapi(getRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer(c, 'admin', 'reader', (q) => matchById(q, id), { notFound: MATCH_NOT_FOUND });
  });
  app.openapi(betsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const paging = pageOf(c.req.valid('query'));
    const [match, bets] = await query(c, 'admin', 'reader', (q) => [
      matchById(q, id),
      betPage(q, paging, { matchId: id }),
    ]);
    bodyOf(match, MATCH_NOT_FOUND);
    return sendPage(c, bets);
  });
  app.openapi(teamsRoute, (c) => answer(c, 'admin', 'reader', (q) => teamList(q)));

  app.openapi(createMatchRoute, (c) => {
    const input = c.req.valid('json');
    return changeMatch(
      c,
      (q) => q`app.create_match(${input.team1_id}, ${input.team2_id}, ${input.start_time},
      ${input.match_type}, ${input.venue}, ${input.external_match_id})`,
      201,
    );
  });
  app.openapi(startRoute, (c) => {
    const { id } = c.req.valid('param');
    return changeMatch(c, (q) => q`app.start_match(${id})`);
  });
  app.openapi(updateLiveRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return changeMatch(
      c,
      (q) => q`app.update_live(${id}, ${input.team1_score}, ${input.team2_score},
      ${input.current_innings ?? null}, ${input.current_over ?? null}, ${input.batting_first_team_id ?? null})`,
    );
  });
  app.openapi(oddsRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return changeMatch(
      c,
      (q) => q`app.set_match_odds(${id}, ${input.team1_odds ?? null}, ${input.team2_odds ?? null})`,
    );
  });
  /**
   * Fixes a match's outcome (the run is recorded in the same transaction) and answers the completed match;
   * its bets, if it has any, are settled right after, in batches, while the answer goes out. A money write:
   * the outcome decides who is paid.
   */
  async function complete(c: Ctx, write: MoneyWrite, change: (q: Sql) => Statement): Promise<DatabaseAnswer> {
    const { body } = await moneyWrite(c, 'admin', write, changedMatch(change));
    if ((JSON.parse(body) as Match).settlement?.state === 'settling') settlement.kickAfterAnswer();
    return sendJson(c, body);
  }
  app.openapi(declareRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return complete(
      c,
      { scope: `PATCH /api/admin/matches/${id}/declare-winner`, request: input, status: 200 },
      (q) => q`app.declare_winner(${id}, ${input.winning_team_id}, ${input.result ?? null})`,
    );
  });
  app.openapi(abandonRoute, (c) => {
    const { id } = c.req.valid('param');
    return complete(
      c,
      { scope: `PATCH /api/admin/matches/${id}/abandon`, request: {}, status: 200 },
      (q) => q`app.abandon_match(${id})`,
    );
  });

  return app;
}
