/**
 * User administration: list, detail, a user's bank accounts / transactions / bets, the accounts linked to a
 * user (and applying a device-linked account's exclusion), wallet adjustment (signed amount, reason required)
 * and status changes (banning ends the user's sessions).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { linkedAccountEntity, userCountsEntity } from '@/domain/admin-entities.ts';
import { accountLimitsEntity } from '@/domain/protection-schemas.ts';
import { bankAccountEntity, betEntity, transactionEntity, userEntity } from '@/domain/entities.ts';
import { USER_STATUSES } from '@/domain/limits.ts';
import { adjustmentSchema, userStatusSchema } from '@/domain/schemas.ts';
import type { Sql, Statement } from '@shared/db.ts';
import { HttpError } from '@shared/errors.ts';
import { answer, query, type Ctx } from '../../context.ts';
import { answerMoneyWrite } from '../../idempotency.ts';
import { errors, idempotencyHeaders, idParams, json, jsonBody, page, router } from '../../openapi.ts';
import { pageOf, pageQuery, sendPage, type PageRoute } from '../../paging.ts';
import { bankAccountPage, betPage, transactionPage, userById, userExists, userPage } from '../../queries.ts';

const tags = ['admin: users'];
export const USER_NOT_FOUND = 'User not found';

export const usersQuery = pageQuery.extend({
  q: z
    .string()
    .trim()
    .max(255, 'Search must be at most 255 characters')
    .optional()
    .describe('Search users: the user id, or a part of the username, name or email (case-insensitive).'),
  status: z.enum(USER_STATUSES, { error: 'Invalid user status' }).optional(),
  below_zero: z
    .enum(['true', 'false'], { error: 'below_zero must be true or false' })
    .optional()
    .describe('true: only the players a result correction left below zero (who may not bet or withdraw).'),
});

const listRoute = createRoute({
  operationId: 'adminListUsers',
  method: 'get',
  path: '/',
  tags,
  summary: 'Users, newest first: search, status tab and those below zero',
  request: { query: usersQuery },
  responses: { 200: page(userEntity, 'Users'), ...errors(400, 401, 403) },
});
const countsRoute = createRoute({
  operationId: 'adminCountUsers',
  method: 'get',
  path: '/counts',
  tags,
  summary: 'The counts of the users tabs',
  responses: { 200: json(userCountsEntity, 'Users in all and of each status'), ...errors(401, 403) },
});
const getRoute = createRoute({
  operationId: 'adminGetUser',
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One user',
  request: { params: idParams },
  responses: { 200: json(userEntity, 'The user'), ...errors(400, 401, 403, 404) },
});
const bankAccountsRoute = createRoute({
  operationId: 'adminListUserBankAccounts',
  method: 'get',
  path: '/{id}/bank-accounts',
  tags,
  summary: "A user's bank accounts in the order added",
  request: { params: idParams, query: pageQuery },
  responses: { 200: page(bankAccountEntity, 'Bank accounts'), ...errors(400, 401, 403, 404) },
});
const transactionsRoute = createRoute({
  operationId: 'adminListUserTransactions',
  method: 'get',
  path: '/{id}/transactions',
  tags,
  summary: "A user's transactions, newest first",
  request: { params: idParams, query: pageQuery },
  responses: { 200: page(transactionEntity, 'Transactions', { counted: true }), ...errors(400, 401, 403, 404) },
});
const betsRoute = createRoute({
  operationId: 'adminListUserBets',
  method: 'get',
  path: '/{id}/bets',
  tags,
  summary: "A user's bets, newest first",
  request: { params: idParams, query: pageQuery },
  responses: { 200: page(betEntity, 'Bets with match and team', { counted: true }), ...errors(400, 401, 403, 404) },
});
const linkedRoute = createRoute({
  operationId: 'adminListLinkedAccounts',
  method: 'get',
  path: '/{id}/linked',
  tags,
  summary: 'Accounts linked to a user: a shared bank account or phone number, or a device (90 days), each with why',
  request: { params: idParams },
  responses: { 200: json(z.array(linkedAccountEntity), 'Linked accounts, by id'), ...errors(400, 401, 403, 404) },
});
const linkedExclusionParams = z.object({
  id: idParams.shape.id,
  linkedId: idParams.shape.id.describe('The device-linked account whose running exclusion is applied'),
});
const linkedExclusionRoute = createRoute({
  operationId: 'adminApplyLinkedExclusion',
  method: 'post',
  path: '/{id}/linked/{linkedId}/exclusion',
  tags,
  summary: "Apply a device-linked account's running time-out or self-exclusion to this user (audited)",
  request: { params: linkedExclusionParams },
  responses: {
    201: json(accountLimitsEntity, "The user's protection, now bound by that exclusion"),
    ...errors(400, 401, 403, 404, 409),
  },
});
const walletRoute = createRoute({
  operationId: 'adminAdjustWallet',
  method: 'post',
  path: '/{id}/wallet',
  tags,
  summary: 'Adjust a wallet: positive credits, negative debits',
  request: {
    params: idParams,
    headers: idempotencyHeaders,
    body: jsonBody(adjustmentSchema, { amount: 500, notes: 'Goodwill credit' }),
  },
  responses: {
    201: json(transactionEntity, 'The admin_adjustment transaction'),
    ...errors(400, 401, 403, 404, 409),
  },
});
const statusRoute = createRoute({
  operationId: 'adminSetUserStatus',
  method: 'patch',
  path: '/{id}/status',
  tags,
  summary: "Set a user's status (banned ends their sessions)",
  request: { params: idParams, body: jsonBody(userStatusSchema, { status: 'active' }) },
  responses: { 200: json(userEntity, 'The user'), ...errors(400, 401, 403, 404) },
});

/** A page of one of a user's lists, or 404 when the user does not exist (rather than an empty list). */
async function userListAnswer<R extends PageRoute>(c: Ctx, id: number, list: (q: Sql) => Statement) {
  const [exists, rows] = await query(c, 'reader', (q) => [userExists(q, id), list(q)]);
  if (exists.length === 0) throw new HttpError(404, USER_NOT_FOUND);
  return sendPage<R>(c, rows);
}

export function adminUserRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const { q: search, status, below_zero, ...paging } = c.req.valid('query');
    const belowZero = below_zero === 'true';
    const [rows] = await query(c, 'service', (q) => [userPage(q, pageOf(paging), { search, status, belowZero })]);
    return sendPage<typeof listRoute>(c, rows);
  });
  app.openapi(countsRoute, (c) =>
    answer<typeof countsRoute>(c, 'service', (q) => q`select app.admin_user_counts()::text as body`),
  );
  app.openapi(getRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer<typeof getRoute>(c, 'reader', (q) => userById(q, id), { notFound: USER_NOT_FOUND });
  });
  app.openapi(bankAccountsRoute, (c) => {
    const { id } = c.req.valid('param');
    const paging = pageOf(c.req.valid('query'));
    return userListAnswer<typeof bankAccountsRoute>(c, id, (q) => bankAccountPage(q, paging, id));
  });
  app.openapi(transactionsRoute, (c) => {
    const { id } = c.req.valid('param');
    const paging = pageOf(c.req.valid('query'));
    return userListAnswer<typeof transactionsRoute>(c, id, (q) =>
      transactionPage(q, paging, { userId: id, counted: true }),
    );
  });
  app.openapi(betsRoute, (c) => {
    const { id } = c.req.valid('param');
    const paging = pageOf(c.req.valid('query'));
    return userListAnswer<typeof betsRoute>(c, id, (q) => betPage(q, paging, { userId: id }));
  });
  app.openapi(linkedRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer<typeof linkedRoute>(c, 'service', (q) => q`select app.admin_linked_accounts(${id})::text as body`);
  });
  app.openapi(linkedExclusionRoute, (c) => {
    const { id, linkedId } = c.req.valid('param');
    return answer<typeof linkedExclusionRoute>(
      c,
      'service',
      (q) => q`select app.apply_linked_exclusion(${id}, ${linkedId})::text as body`,
      {
        status: 201,
      },
    );
  });
  app.openapi(walletRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return answerMoneyWrite<typeof walletRoute>(
      c,
      { scope: `POST /api/admin/users/${id}/wallet`, request: input, status: 201 },
      (q) => q`
      select to_jsonb(t)::text as body from app.admin_adjust_wallet(${id}, ${input.amount}, ${input.notes}) t`,
    );
  });
  app.openapi(statusRoute, (c) => {
    const { id } = c.req.valid('param');
    const { status } = c.req.valid('json');
    return answer<typeof statusRoute>(
      c,
      'service',
      (q) => q`
      select app.user_json(u)::text as body from app.set_user_status(${id}, ${status}) u`,
    );
  });

  return app;
}
