/**
 * Match administration (/api/admin/matches): list, detail, create, start, live update, the price of each
 * side (odds), declare winner, abandon (void: bets cancelled and refunded); house risk: suspend and resume
 * betting, the risk view of the match's book; and a wrong result corrected: propose the right outcome of a
 * completed match (202: a second administrator must approve, admin/corrections.ts) and the match's
 * corrections. Each write is one app.* function (admin re-checked there, audited there; the rules of
 * corrections in supabase/schemas/36_corrections.sql, of house risk in 60_house_risk.sql).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  correctResultSchema,
  pendingCorrectionEntity,
  resultCorrectionEntity,
  SECOND_ADMIN_FOR_CORRECTION,
} from '@/domain/corrections.ts';
import { matchEntity, type Match } from '@/domain/entities.ts';
import { matchRiskEntity } from '@/domain/risk.ts';
import { createMatchSchema, declareWinnerSchema, matchOddsSchema, updateLiveSchema } from '@/domain/schemas.ts';
import type { RouteConfig } from '@hono/zod-openapi';
import { answer, sendJson, type Answer, type AnswerArgs, type AnswerStatus, type Ctx } from '../../context.ts';
import type { Sql, Statement } from '@shared/db.ts';
import type { SettlementWorker } from '@shared/settlement-worker.ts';
import { answerMoneyWrite, moneyWrite, type MoneyWrite } from '../../idempotency.ts';
import { errors, idempotencyHeaders, idParams, json, jsonBody, router } from '../../openapi.ts';
import { MATCH_NOT_FOUND, matchById, matchesQuery, matchList } from '../../queries.ts';

const tags = ['admin: matches'];
const adminErrors = [401, 403] as const;

const listRoute = createRoute({
  operationId: 'adminListMatches',
  method: 'get',
  path: '/',
  tags,
  summary: 'All matches, newest start first',
  request: { query: matchesQuery },
  responses: { 200: json(z.array(matchEntity), 'Matches'), ...errors(400, ...adminErrors) },
});
const getRoute = createRoute({
  operationId: 'adminGetMatch',
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One match',
  request: { params: idParams },
  responses: { 200: json(matchEntity, 'The match'), ...errors(400, ...adminErrors, 404) },
});
const createMatchRoute = createRoute({
  operationId: 'adminCreateMatch',
  method: 'post',
  path: '/',
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
  path: '/{id}/start',
  tags,
  summary: 'Start an upcoming match',
  request: { params: idParams },
  responses: { 200: json(matchEntity, 'The live match'), ...errors(400, ...adminErrors, 404, 409) },
});
const updateLiveRoute = createRoute({
  operationId: 'adminUpdateLive',
  method: 'patch',
  path: '/{id}/update-live',
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
  path: '/{id}/odds',
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
  path: '/{id}/declare-winner',
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
  path: '/{id}/abandon',
  tags,
  summary: 'Void an upcoming or live match: its bets are cancelled and their stakes refunded in batches right after',
  request: { params: idParams, headers: idempotencyHeaders },
  responses: {
    200: json(matchEntity, 'The abandoned (completed) match'),
    ...errors(400, ...adminErrors, 404, 409),
  },
});

const suspendRoute = createRoute({
  operationId: 'adminSuspendMatch',
  method: 'patch',
  path: '/{id}/suspend',
  tags: ['admin: house risk'],
  summary: 'Suspend betting on an upcoming or live match (bets are a 409 until resumed)',
  request: { params: idParams },
  responses: {
    200: json(matchEntity, "The match (betting 'suspended', or 'closed' if closed anyway)"),
    ...errors(400, 401, 403, 404, 409),
  },
});
const resumeRoute = createRoute({
  operationId: 'adminResumeMatch',
  method: 'patch',
  path: '/{id}/resume',
  tags: ['admin: house risk'],
  summary: 'Resume betting on a suspended match',
  request: { params: idParams },
  responses: { 200: json(matchEntity, 'The match'), ...errors(400, 401, 403, 404, 409) },
});
const riskRoute = createRoute({
  operationId: 'adminGetMatchRisk',
  method: 'get',
  path: '/{id}/risk',
  tags: ['admin: house risk'],
  summary: "The match's book per side (bets not cancelled) and the house's net should each side win",
  request: { params: idParams },
  responses: { 200: json(matchRiskEntity, 'The risk view'), ...errors(400, 401, 403, 404) },
});
const proposeRoute = createRoute({
  operationId: 'adminProposeResultCorrection',
  method: 'post',
  path: '/{id}/correct-result',
  tags: ['admin: matches'],
  summary:
    'Propose the right result of a completed or abandoned match (a winning team, or abandon) within 7 days of its ' +
    'declaration, with a reason of 10-200 characters; another administrator must approve it',
  request: {
    params: idParams,
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: correctResultSchema,
          example: { winning_team_id: 2, reason: 'Wrong team tapped in the confirmation dialog' },
        },
      },
    },
  },
  responses: {
    202: json(pendingCorrectionEntity, 'The correction, waiting for a second administrator'),
    ...errors(400, 401, 403, 404, 409),
  },
});
const correctionsRoute = createRoute({
  operationId: 'adminListResultCorrections',
  method: 'get',
  path: '/{id}/corrections',
  tags: ['admin: matches'],
  summary: "A match's result corrections, newest first (pending, rejected, applying or applied)",
  request: { params: idParams },
  responses: { 200: json(z.array(resultCorrectionEntity), 'Corrections'), ...errors(400, 401, 403, 404) },
});
/** The statement of a match-changing app.* function (`change` returns the match row): the match as answered. */
const changedMatch = (change: (q: Sql) => Statement) => (q: Sql) =>
  q`select app.match_json(m)::text as body from ${change(q)} m`;

/** Runs a match-changing app.* function and answers the match with its teams. */
function changeMatch<R extends RouteConfig>(c: Ctx, change: (q: Sql) => Statement, ...options: AnswerArgs<R>) {
  return answer<R>(c, 'service', changedMatch(change), ...options);
}

export function adminMatchRoutes(settlement: SettlementWorker) {
  const app = router();

  app.openapi(listRoute, (c) => {
    const { status } = c.req.valid('query');
    return answer<typeof listRoute>(c, 'reader', (q) => matchList(q, { status, newestFirst: true }));
  });
  app.openapi(getRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer<typeof getRoute>(c, 'reader', (q) => matchById(q, id), { notFound: MATCH_NOT_FOUND });
  });

  app.openapi(createMatchRoute, (c) => {
    const input = c.req.valid('json');
    return changeMatch<typeof createMatchRoute>(
      c,
      (q) => q`app.create_match(${input.team1_id}, ${input.team2_id}, ${input.start_time},
      ${input.match_type}, ${input.venue}, ${input.external_match_id})`,
      { status: 201 },
    );
  });
  app.openapi(startRoute, (c) => {
    const { id } = c.req.valid('param');
    return changeMatch<typeof startRoute>(c, (q) => q`app.start_match(${id})`);
  });
  app.openapi(updateLiveRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return changeMatch<typeof updateLiveRoute>(
      c,
      (q) => q`app.update_live(${id}, ${input.team1_score}, ${input.team2_score},
      ${input.current_innings ?? null}, ${input.current_over ?? null}, ${input.batting_first_team_id ?? null})`,
    );
  });
  app.openapi(oddsRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return changeMatch<typeof oddsRoute>(
      c,
      (q) => q`app.set_match_odds(${id}, ${input.team1_odds ?? null}, ${input.team2_odds ?? null})`,
    );
  });
  /**
   * Fixes a match's outcome (the run is recorded in the same transaction) and answers the completed match;
   * its bets, if it has any, are settled right after, in batches, while the answer goes out. A money write:
   * the outcome decides who is paid.
   */
  async function complete<R extends RouteConfig>(
    c: Ctx,
    write: MoneyWrite & { status: AnswerStatus<R> },
    change: (q: Sql) => Statement,
  ): Promise<Answer<R>> {
    const { body } = await moneyWrite(c, write, changedMatch(change));
    if ((JSON.parse(body) as Match).settlement?.state === 'settling') settlement.kickAfterAnswer();
    return sendJson<R>(c, body, write.status);
  }
  app.openapi(declareRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return complete<typeof declareRoute>(
      c,
      { scope: `PATCH /api/admin/matches/${id}/declare-winner`, request: input, status: 200 },
      (q) => q`app.declare_winner(${id}, ${input.winning_team_id}, ${input.result ?? null})`,
    );
  });
  app.openapi(abandonRoute, (c) => {
    const { id } = c.req.valid('param');
    return complete<typeof abandonRoute>(
      c,
      { scope: `PATCH /api/admin/matches/${id}/abandon`, request: {}, status: 200 },
      (q) => q`app.abandon_match(${id})`,
    );
  });

  app.openapi(suspendRoute, (c) => {
    const { id } = c.req.valid('param');
    return changeMatch<typeof suspendRoute>(c, (q) => q`app.set_betting_suspended(${id}, true)`);
  });
  app.openapi(resumeRoute, (c) => {
    const { id } = c.req.valid('param');
    return changeMatch<typeof resumeRoute>(c, (q) => q`app.set_betting_suspended(${id}, false)`);
  });
  app.openapi(riskRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer<typeof riskRoute>(c, 'service', (q) => q`select app.match_risk(${id})::text as body`);
  });
  app.openapi(proposeRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return answerMoneyWrite<typeof proposeRoute>(
      c,
      { scope: `POST /api/admin/matches/${id}/correct-result`, request: input, status: 'answered' },
      (q) => q`
        select jsonb_build_object('message', ${SECOND_ADMIN_FOR_CORRECTION}::text, 'correction', c)::text as body,
               202 as status
        from app.propose_result_correction(${id}, ${input.winning_team_id ?? null}, ${input.result ?? null},
                                           ${input.abandon ?? false}, ${input.reason}) c`,
    );
  });
  app.openapi(correctionsRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer<typeof correctionsRoute>(
      c,
      'service',
      (q) => q`select app.match_result_corrections(${id})::text as body`,
    );
  });

  return app;
}
