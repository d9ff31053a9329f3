/**
 * Spec §7.3 user administration: list, detail, a user's bank accounts / transactions / bets, wallet
 * adjustment (signed amount, reason required) and status changes (banning ends the user's sessions).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { bankAccountEntity, betEntity, transactionEntity, userEntity, type Transaction } from '../../../../src/domain/entities.ts';
import { adjustmentSchema, userStatusSchema } from '../../../../src/domain/schemas.ts';
import type { TransactionSql } from '../../../_shared/db.ts';
import { one, withCaller } from '../../context.ts';
import { errors, idParams, json, jsonBody, router } from '../../openapi.ts';
import { getUser, listBankAccounts, listBets, listTransactions, listUsers } from '../../queries.ts';

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

async function requireUserExists(tx: TransactionSql, id: number) {
  one(await tx`select 1 from public.users where id = ${id}`, USER_NOT_FOUND);
}

export function adminUserRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => c.json(await withCaller(c, (db) => listUsers(db.tx)), 200));
  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    const user = await withCaller(c, (db) => getUser(db.tx, id));
    return c.json(one(user ? [user] : [], USER_NOT_FOUND), 200);
  });
  app.openapi(bankAccountsRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await withCaller(c, async (db) => {
      await requireUserExists(db.tx, id);
      return await listBankAccounts(db.tx, id);
    }), 200);
  });
  app.openapi(transactionsRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await withCaller(c, async (db) => {
      await requireUserExists(db.tx, id);
      return await listTransactions(db.tx, { userId: id });
    }), 200);
  });
  app.openapi(betsRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await withCaller(c, async (db) => {
      await requireUserExists(db.tx, id);
      return await listBets(db.tx, { userId: id });
    }), 200);
  });
  app.openapi(walletRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { amount, notes } = c.req.valid('json');
    const transaction = await withCaller(c, async (db) => {
      await db.asService();
      const [row] = await db.tx<{ t: Transaction }[]>`
        select to_jsonb(t) as t from app.admin_adjust_wallet(${id}, ${amount}, ${notes}) t`;
      return row.t;
    });
    return c.json(transaction, 201);
  });
  app.openapi(statusRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { status } = c.req.valid('json');
    const user = await withCaller(c, async (db) => {
      await db.asService();
      await db.tx`select from app.set_user_status(${id}, ${status})`;
      await db.asReader();
      return await getUser(db.tx, id);
    });
    return c.json(one(user ? [user] : [], USER_NOT_FOUND), 200);
  });

  return app;
}
