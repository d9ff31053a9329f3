/**
 * The wallet: POST /api/wallet/deposit, POST /api/wallet/withdraw, GET /api/wallet/transactions.
 *
 * Deposit: the client's `status` is ignored (the schema strips it): a deposit is always created pending and
 * completed only by the gateway's signed webhook or an admin. The answer adds `redirect_url`: the gateway
 * page (PAYMENT_GATEWAY_URL, by default the local sandbox) with amount, username and reference.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { depositResponseEntity, transactionEntity, type Transaction } from '../../../src/domain/entities.ts';
import { depositSchema, withdrawalSchema } from '../../../src/domain/schemas.ts';
import { HttpError } from '../../_shared/errors.ts';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../../../src/domain/limits.ts';
import { query } from '../context.ts';
import { answerMoneyWrite, moneyWrite } from '../idempotency.ts';
import { errors, signedInOnly, idempotencyHeaders, json, jsonBody, page, router } from '../openapi.ts';
import { pageOf, pageQuery, sendPage } from '../paging.ts';
import { transactionPage } from '../queries.ts';

export const transactionsQuery = pageQuery.extend({
  userId: z.coerce
    .number({ error: 'Invalid user id' })
    .int('Invalid user id')
    .positive('Invalid user id')
    .max(Number.MAX_SAFE_INTEGER, 'Invalid user id')
    .optional()
    .describe("Admins only: another user's transactions (a player may pass only their own id)."),
  type: z.enum(TRANSACTION_TYPES, { error: 'Invalid transaction type' }).optional(),
  status: z.enum(TRANSACTION_STATUSES, { error: 'Invalid transaction status' }).optional(),
});

const depositRoute = createRoute({
  operationId: 'deposit',
  ...signedInOnly,
  method: 'post',
  path: '/wallet/deposit',
  tags: ['wallet'],
  summary: 'Create a pending UPI deposit',
  request: {
    headers: idempotencyHeaders,
    body: jsonBody(depositSchema, { amount: 1000, paymentMethod: 'upi', reference: 'REF-1764201600000-QWER' }),
  },
  responses: {
    201: json(
      depositResponseEntity,
      'The pending deposit and redirect_url, the payment gateway page to send the browser to',
    ),
    ...errors(400, 401, 403, 409),
    503: json(
      z.object({ message: z.string() }),
      'No payment gateway configured, or the database unavailable: nothing was written',
    ),
  },
});

const withdrawRoute = createRoute({
  operationId: 'withdraw',
  ...signedInOnly,
  method: 'post',
  path: '/wallet/withdraw',
  tags: ['wallet'],
  summary: 'Request a withdrawal to an own bank account',
  request: { headers: idempotencyHeaders, body: jsonBody(withdrawalSchema, { amount: 1000, bankAccountId: 1 }) },
  responses: {
    201: json(transactionEntity, 'The pending withdrawal (amount negative)'),
    ...errors(400, 401, 403, 404, 409),
  },
});

const transactionsRoute = createRoute({
  operationId: 'listWalletTransactions',
  ...signedInOnly,
  method: 'get',
  path: '/wallet/transactions',
  tags: ['wallet'],
  summary: 'Wallet transactions, newest first',
  request: { query: transactionsQuery },
  responses: {
    200: page(transactionEntity, 'Transactions, optionally of one type and/or status'),
    ...errors(400, 401, 403),
  },
});

/**
 * The gateway URL with the query the gateway reads (amount, username, reference). A path-only base (the sandbox,
 * '/api/payments/sandbox') stays relative: the browser resolves it against the SPA's own origin.
 */
export function gatewayUrl(base: string, params: { amount: number; username: string; reference: string }) {
  const url = new URL(base, 'http://relative.invalid');
  url.searchParams.set('amount', String(params.amount));
  url.searchParams.set('username', params.username);
  url.searchParams.set('reference', params.reference);
  return base.startsWith('/') ? `${url.pathname}${url.search}` : url.toString();
}

export function walletRoutes() {
  const app = router();

  app.openapi(depositRoute, async (c) => {
    const input = c.req.valid('json');
    const gateway = c.get('config').paymentGatewayUrl;
    if (!gateway) throw new HttpError(503, 'Payment gateway is not configured');
    const { body } = await moneyWrite(
      c,
      'user',
      { scope: 'POST /api/wallet/deposit', request: input, status: 201 },
      (q) => q`
      select (to_jsonb(t) || jsonb_build_object('username', u.username))::text as body
      from app.request_deposit(${input.amount}, ${input.paymentMethod}, ${input.reference}) t
      join public.users u on u.id = t.user_id`,
    );
    const { username, ...transaction } = JSON.parse(body) as Transaction & { username: string };
    const redirect_url = gatewayUrl(gateway, {
      amount: transaction.amount,
      username,
      reference: transaction.reference_id ?? input.reference,
    });
    return c.json({ ...transaction, redirect_url }, 201);
  });

  app.openapi(withdrawRoute, (c) => {
    const input = c.req.valid('json');
    return answerMoneyWrite(
      c,
      'user',
      { scope: 'POST /api/wallet/withdraw', request: input, status: 201 },
      (q) => q`
      select to_jsonb(t)::text as body from app.request_withdrawal(${input.amount}, ${input.bankAccountId}) t`,
    );
  });

  app.openapi(transactionsRoute, async (c) => {
    const { userId, type, status, ...paging } = c.req.valid('query');
    const [[caller], rows] = await query(c, 'user', 'reader', (q) => [
      q`select app.current_user_id() as id, app.is_admin() as admin`,
      transactionPage(q, pageOf(paging), { userId, type, status }),
    ]);
    // Another user's transactions are for admins only (RLS would show a player none of them anyway).
    if (userId !== undefined && userId !== caller.id && !caller.admin) {
      throw new HttpError(403, 'You can only view your own transactions');
    }
    return sendPage(c, rows);
  });

  return app;
}
