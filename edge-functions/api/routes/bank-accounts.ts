/**
 * Bank accounts: GET /api/bank-accounts, POST /api/bank-accounts. The owner is always the session's user:
 * a `user_id` in the body is stripped by the schema and never reaches the database.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { bankAccountEntity } from '@/domain/entities.ts';
import { bankAccountSchema } from '@/domain/schemas.ts';
import { answer } from '../context.ts';
import { errors, json, jsonBody, router } from '../openapi.ts';
import { bankAccountList } from '../queries.ts';

const listRoute = createRoute({
  operationId: 'listBankAccounts',
  method: 'get',
  path: '/',
  tags: ['bank accounts'],
  summary: "The caller's bank accounts",
  responses: { 200: json(z.array(bankAccountEntity), 'Bank accounts'), ...errors(401) },
});

const addRoute = createRoute({
  operationId: 'addBankAccount',
  method: 'post',
  path: '/',
  tags: ['bank accounts'],
  summary: 'Add a bank account (owner: the caller)',
  request: {
    body: jsonBody(bankAccountSchema, {
      account_holder: 'Asha Patel',
      account_number: '50100123456789',
      ifsc_code: 'HDFC0001234',
      bank_name: 'HDFC Bank',
    }),
  },
  responses: { 201: json(bankAccountEntity, 'The new bank account'), ...errors(400, 401, 403, 409) },
});

export function bankAccountRoutes() {
  const app = router('user');
  app.openapi(listRoute, (c) => answer<typeof listRoute>(c, 'reader', (q) => bankAccountList(q)));
  app.openapi(addRoute, (c) => {
    const input = c.req.valid('json');
    return answer<typeof addRoute>(
      c,
      'service',
      (q) => q`
      select app.bank_account_json(a)::text as body
      from app.add_bank_account(${input.account_holder}, ${input.account_number}, ${input.ifsc_code}, ${input.bank_name}) a`,
      { status: 201 },
    );
  });
  return app;
}
