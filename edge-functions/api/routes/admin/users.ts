/**
 * Spec §7.3 user administration: list, detail, a user's bank accounts / transactions / bets, wallet
 * adjustment (signed amount, reason required) and status changes (banning ends the user's sessions).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { bankAccountEntity, betEntity, transactionEntity, userEntity } from '../../../../src/domain/entities.ts';
import { adjustmentSchema, userStatusSchema } from '../../../../src/domain/schemas.ts';
import type { Sql, Statement } from '../../../_shared/db.ts';
import { HttpError } from '../../../_shared/errors.ts';
import { answer, bodyOf, query, sendJson, type Ctx, type DatabaseAnswer } from '../../context.ts';
import { errors, idParams, json, jsonBody, router } from '../../openapi.ts';
import { bankAccountList, betList, transactionList, userById, userExists, userList } from '../../queries.ts';

const tags = ['admin: users'];
export const USER_NOT_FOUND = 'User not found';

const listRoute = createRoute({
  method: 'get', path: '/users', tags, summary: 'All users',
  responses: { 200: json(z.array(userEntity), 'Users'), ...errors(401, 403) },
});
const getRoute = createRoute({
  method: 'get', path: '/users/{id}', tags, summary: 'One user',
  request: { params: idParams },
  responses: { 200: json(userEntity, 'The user'), ...errors(400, 401, 403, 404) },
});
const bankAccountsRoute = createRoute({
  method: 'get', path: '/users/{id}/bank-accounts', tags, summary: 'A user\'s bank accounts',
  request: { params: idParams },
  responses: { 200: json(z.array(bankAccountEntity), 'Bank accounts'), ...errors(400, 401, 403, 404) },
});
const transactionsRoute = createRoute({
  method: 'get', path: '/users/{id}/transactions', tags, summary: 'A user\'s transactions, newest first',
  request: { params: idParams },
  responses: { 200: json(z.array(transactionEntity), 'Transactions'), ...errors(400, 401, 403, 404) },
});
const betsRoute = createRoute({
  method: 'get', path: '/users/{id}/bets', tags, summary: 'A user\'s bets, newest first',
  request: { params: idParams },
  responses: { 200: json(z.array(betEntity), 'Bets with match and team'), ...errors(400, 401, 403, 404) },
});
const walletRoute = createRoute({
  method: 'post', path: '/users/{id}/wallet', tags, summary: 'Adjust a wallet: positive credits, negative debits',
  request: { params: idParams, body: jsonBody(adjustmentSchema) },
  responses: { 201: json(transactionEntity, 'The admin_adjustment transaction'), ...errors(400, 401, 403, 404, 409) },
});
const statusRoute = createRoute({
  method: 'patch', path: '/users/{id}/status', tags, summary: 'Set a user\'s status (banned ends their sessions)',
  request: { params: idParams, body: jsonBody(userStatusSchema) },
  responses: { 200: json(userEntity, 'The user'), ...errors(400, 401, 403, 404) },
});

/** One of a user's lists, or 404 when the user does not exist (rather than an empty list). */
async function userListAnswer(c: Ctx, id: number, list: (q: Sql) => Statement): Promise<DatabaseAnswer> {
  const [exists, rows] = await query(c, 'admin', 'reader', (q) => [userExists(q, id), list(q)]);
  if (exists.length === 0) throw new HttpError(404, USER_NOT_FOUND);
  return sendJson(c, bodyOf(rows));
}

export function adminUserRoutes() {
  const app = router();

  app.openapi(listRoute, (c) => answer(c, 'admin', 'reader', (q) => userList(q)));
  app.openapi(getRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer(c, 'admin', 'reader', (q) => userById(q, id), { notFound: USER_NOT_FOUND });
  });
  app.openapi(bankAccountsRoute, (c) => {
    const { id } = c.req.valid('param');
    return userListAnswer(c, id, (q) => bankAccountList(q, id));
  });
  app.openapi(transactionsRoute, (c) => {
    const { id } = c.req.valid('param');
    return userListAnswer(c, id, (q) => transactionList(q, id));
  });
  app.openapi(betsRoute, (c) => {
    const { id } = c.req.valid('param');
    return userListAnswer(c, id, (q) => betList(q, { userId: id }));
  });
  app.openapi(walletRoute, (c) => {
    const { id } = c.req.valid('param');
    const { amount, notes } = c.req.valid('json');
    return answer(c, 'admin', 'service', (q) => q`
      select to_jsonb(t)::text as body from app.admin_adjust_wallet(${id}, ${amount}, ${notes}) t`, { status: 201 });
  });
  app.openapi(statusRoute, (c) => {
    const { id } = c.req.valid('param');
    const { status } = c.req.valid('json');
    return answer(c, 'admin', 'service', (q) => q`
      select app.user_json(u)::text as body from app.set_user_status(${id}, ${status}) u`);
  });

  return app;
}
