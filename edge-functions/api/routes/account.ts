/**
 * Player protection: GET and PUT /api/account/limits, POST /api/account/timeout and
 * POST /api/account/self-exclusion. The rules live in the database (app.account_limits, app.set_deposit_limit,
 * app.take_timeout, app.self_exclude): each answer is the caller's protection after the request, built there.
 * Reality checks: GET and PUT /api/account/reality-check (the interval) and GET /api/account/play-session (this
 * session's start, the server's time and its net result); POST /api/account/limit-prompt answers, once, the
 * deposit-limit prompt before a first deposit (app.reality_check, app.set_reality_check, app.play_session,
 * app.answer_limit_prompt). These act on the caller's own account only.
 *
 * `?userId=` names whose account: an admin may read any player's limits and exclusion, but nobody — admins
 * included — may change another user's (403): only the player protects themself, and nothing lifts it early.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  accountLimitsEntity,
  depositLimitSchema,
  limitPromptAnswerSchema,
  playSessionEntity,
  realityCheckSchema,
  selfExclusionSchema,
  timeoutSchema,
} from '@/domain/protection-schemas.ts';
import { answer } from '../context.ts';
import { errors, json, jsonBody, router, userIdQuery as userId } from '../openapi.ts';

const tags = ['account: player protection'];

const readQuery = z.object({
  userId: userId.describe("Admins only: another player's limits and exclusion (a player may pass only their own id)."),
});
const writeQuery = z.object({
  userId: userId.describe(
    "Only the player may change their own protection: another user's id is refused (403), for admins too.",
  ),
});

const getRoute = createRoute({
  operationId: 'getAccountLimits',
  method: 'get',
  path: '/limits',
  tags,
  summary: 'Deposit limits, pending changes, time-out and self-exclusion',
  request: { query: readQuery },
  responses: { 200: json(accountLimitsEntity, 'The protection in force now'), ...errors(400, 401, 403, 404) },
});

const putRoute = createRoute({
  operationId: 'setDepositLimit',
  method: 'put',
  path: '/limits',
  tags,
  summary: 'Set or remove (amount null) a deposit limit: lower ones apply at once, raises and removals after 24 hours',
  request: { query: writeQuery, body: jsonBody(depositLimitSchema, { period: 'daily', amount: 5000 }) },
  responses: { 200: json(accountLimitsEntity, 'The protection after the change'), ...errors(400, 401, 403) },
});

const timeoutRoute = createRoute({
  operationId: 'takeTimeout',
  method: 'post',
  path: '/timeout',
  tags,
  summary: 'Take a time-out: no bets or deposits for 1, 7, 30 or 42 days',
  request: { query: writeQuery, body: jsonBody(timeoutSchema, { days: 7 }) },
  responses: {
    201: json(accountLimitsEntity, 'The protection with the time-out, effective at once'),
    ...errors(400, 401, 403, 409),
  },
});

const selfExclusionRoute = createRoute({
  operationId: 'selfExclude',
  method: 'post',
  path: '/self-exclusion',
  tags,
  summary: 'Self-exclude: no bets or deposits for 6, 12 or 60 months',
  request: { query: writeQuery, body: jsonBody(selfExclusionSchema, { months: 6 }) },
  responses: {
    201: json(accountLimitsEntity, 'The protection with the self-exclusion, effective at once'),
    ...errors(400, 401, 403, 409),
  },
});

const getRealityCheckRoute = createRoute({
  operationId: 'getRealityCheck',
  method: 'get',
  path: '/reality-check',
  tags,
  summary: 'How often a reality check interrupts play',
  responses: {
    200: json(realityCheckSchema, 'Every 15, 30 or 60 minutes, or never (null); 60 until chosen'),
    ...errors(401, 403),
  },
});

const putRealityCheckRoute = createRoute({
  operationId: 'setRealityCheck',
  method: 'put',
  path: '/reality-check',
  tags,
  summary: 'Choose the reality-check interval (applies at once)',
  request: { body: jsonBody(realityCheckSchema, { interval_minutes: 30 }) },
  responses: { 200: json(realityCheckSchema, 'The interval now'), ...errors(400, 401, 403) },
});

const playSessionRoute = createRoute({
  operationId: 'getPlaySession',
  method: 'get',
  path: '/play-session',
  tags,
  summary:
    "This play session: its start, the server's time, the reality-check interval and the net result of bets since",
  responses: { 200: json(playSessionEntity, 'The play session'), ...errors(401, 403) },
});

const limitPromptRoute = createRoute({
  operationId: 'answerLimitPrompt',
  method: 'post',
  path: '/limit-prompt',
  tags,
  summary: 'Answer, once, the deposit-limit prompt before a first deposit: set a limit or not now',
  request: { body: jsonBody(limitPromptAnswerSchema, { answer: 'set_limit', period: 'weekly', amount: 10_000 }) },
  responses: {
    201: json(accountLimitsEntity, 'The protection after the answer'),
    ...errors(400, 401, 403, 409),
  },
});

export function accountRoutes() {
  const app = router('user');

  app.openapi(getRoute, (c) => {
    const { userId } = c.req.valid('query');
    return answer<typeof getRoute>(c, 'service', (q) => q`select app.account_limits(${userId ?? null})::text as body`);
  });

  app.openapi(putRoute, (c) => {
    const { userId } = c.req.valid('query');
    const { period, amount } = c.req.valid('json');
    return answer<typeof putRoute>(
      c,
      'service',
      (q) => q`
      select app.set_deposit_limit(${period}, ${amount}, ${userId ?? null})::text as body`,
    );
  });

  app.openapi(timeoutRoute, (c) => {
    const { userId } = c.req.valid('query');
    const { days } = c.req.valid('json');
    return answer<typeof timeoutRoute>(
      c,
      'service',
      (q) => q`select app.take_timeout(${days}, ${userId ?? null})::text as body`,
      {
        status: 201,
      },
    );
  });

  app.openapi(selfExclusionRoute, (c) => {
    const { userId } = c.req.valid('query');
    const { months } = c.req.valid('json');
    return answer<typeof selfExclusionRoute>(
      c,
      'service',
      (q) => q`select app.self_exclude(${months}, ${userId ?? null})::text as body`,
      {
        status: 201,
      },
    );
  });

  app.openapi(getRealityCheckRoute, (c) =>
    answer<typeof getRealityCheckRoute>(c, 'service', (q) => q`select app.reality_check()::text as body`),
  );

  app.openapi(putRealityCheckRoute, (c) => {
    const { interval_minutes: minutes } = c.req.valid('json');
    return answer<typeof putRealityCheckRoute>(
      c,
      'service',
      (q) => q`select app.set_reality_check(${minutes})::text as body`,
    );
  });

  app.openapi(playSessionRoute, (c) =>
    answer<typeof playSessionRoute>(c, 'service', (q) => q`select app.play_session()::text as body`),
  );

  app.openapi(limitPromptRoute, (c) => {
    const body = c.req.valid('json');
    const [period, amount] = body.answer === 'set_limit' ? [body.period, body.amount] : [null, null];
    return answer<typeof limitPromptRoute>(
      c,
      'service',
      (q) => q`select app.answer_limit_prompt(${period}, ${amount})::text as body`,
      {
        status: 201,
      },
    );
  });

  return app;
}
