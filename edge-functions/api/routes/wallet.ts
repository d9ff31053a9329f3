/**
 * The wallet (/api/wallet, signed-in players): POST deposit, POST withdraw, GET transactions and GET
 * statement.csv.
 *
 * Deposit: the client's `status` is ignored (the schema strips it): a deposit is always created pending and
 * completed only by the gateway's signed webhook or an admin. The answer adds `redirect_url`: the gateway
 * page (PAYMENT_GATEWAY_URL, by default the local sandbox) with amount, username and reference.
 *
 * Statement: GET /api/wallet/statement.csv?from=YYYY-MM-DD&to=YYYY-MM-DD[&userId=]: the ledger between
 * two IST calendar days as CSV — date (IST), type, amount, status, reference and the running balance of
 * completed rows. A player gets their own; an admin any player's (`userId`).
 *
 * The lines come from app.statement in chunks of CHUNK_ROWS, each one short transaction and one round trip
 * (a month's statement is usually one): the first chunk is read before answering, so a refusal is a plain
 * JSON error; the next ones are read as the client takes the download in, each continuing after the last
 * id with the last balance. So a statement of any length holds one chunk in memory and no connection
 * while the client is slow.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { depositResponseEntity, transactionEntity, type Transaction } from '@/domain/entities.ts';
import { depositSchema, withdrawalSchema } from '@/domain/schemas.ts';
import { statementRangeSchema } from '@/domain/protection-schemas.ts';
import type { Rows } from '@shared/db.ts';
import { HttpError } from '@shared/errors.ts';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@/domain/limits.ts';
import { query } from '../context.ts';
import { answerMoneyWrite, moneyWrite } from '../idempotency.ts';
import { errors, idempotencyHeaders, json, jsonBody, page, router, userIdQuery } from '../openapi.ts';
import { pageOf, pageQuery, sendPage } from '../paging.ts';
import { transactionPage } from '../queries.ts';

const transactionsQuery = pageQuery.extend({
  userId: userIdQuery.describe("Admins only: another user's transactions (a player may pass only their own id)."),
  type: z.enum(TRANSACTION_TYPES, { error: 'Invalid transaction type' }).optional(),
  status: z.enum(TRANSACTION_STATUSES, { error: 'Invalid transaction status' }).optional(),
});

const depositRoute = createRoute({
  operationId: 'deposit',
  method: 'post',
  path: '/deposit',
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
  method: 'post',
  path: '/withdraw',
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
  method: 'get',
  path: '/transactions',
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
/** The columns of app.statement's lines. */
export const STATEMENT_HEADER = 'date (IST),type,amount,status,reference,balance after';
const CHUNK_ROWS = 1000;
const LINE_END = '\r\n';

const statementQuery = statementRangeSchema.safeExtend({
  userId: userIdQuery.describe("Admins only: another player's statement (a player may pass only their own id)."),
});

const statementRoute = createRoute({
  operationId: 'downloadStatement',
  method: 'get',
  path: '/statement.csv',
  tags: ['wallet'],
  summary: 'The ledger between two dates (IST, both included) as CSV with the running balance',
  request: { query: statementQuery },
  responses: {
    200: { description: 'CSV (RFC 4180, CRLF), a header line first', content: { 'text/csv': { schema: z.string() } } },
    ...errors(400, 401, 403, 404),
  },
});

export function gatewayUrl(base: string, params: { amount: number; username: string; reference: string }) {
  const url = new URL(base, 'http://relative.invalid');
  url.searchParams.set('amount', String(params.amount));
  url.searchParams.set('username', params.username);
  url.searchParams.set('reference', params.reference);
  return base.startsWith('/') ? `${url.pathname}${url.search}` : url.toString();
}

export function walletRoutes() {
  const app = router('user');

  app.openapi(depositRoute, async (c) => {
    const input = c.req.valid('json');
    const gateway = c.get('config').paymentGatewayUrl;
    if (!gateway) throw new HttpError(503, 'Payment gateway is not configured');
    const { body } = await moneyWrite(
      c,
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
    return answerMoneyWrite<typeof withdrawRoute>(
      c,
      { scope: 'POST /api/wallet/withdraw', request: input, status: 201 },
      (q) => q`
      select to_jsonb(t)::text as body from app.request_withdrawal(${input.amount}, ${input.bankAccountId}) t`,
    );
  });

  app.openapi(transactionsRoute, async (c) => {
    const { userId, type, status, ...paging } = c.req.valid('query');
    const [[caller], rows] = await query(c, 'reader', (q) => [
      q`select app.current_user_id() as id, app.is_admin() as admin`,
      transactionPage(q, pageOf(paging), { userId, type, status }),
    ]);
    // Another user's transactions are for admins only (RLS would show a player none of them anyway).
    if (userId !== undefined && userId !== caller.id && !caller.admin) {
      throw new HttpError(403, 'You can only view your own transactions');
    }
    return sendPage<typeof transactionsRoute>(c, rows);
  });

  app.openapi(statementRoute, async (c) => {
    const { from, to, userId } = c.req.valid('query');
    const chunk = async (after: { id: number; balance_after: number } | null): Promise<Rows> => {
      const [rows] = await query(c, 'service', (q) => [
        q`
        select s.id, s.balance_after, s.line
        from app.statement(${userId ?? null}, ${from}, ${to}, ${after?.id ?? null}, ${after?.balance_after ?? null}, ${CHUNK_ROWS}) s`,
      ]);
      return rows;
    };
    let rows = await chunk(null);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(STATEMENT_HEADER + LINE_END));
      },
      async pull(controller) {
        if (rows.length > 0) controller.enqueue(encoder.encode(rows.map((row) => row.line + LINE_END).join('')));
        if (rows.length < CHUNK_ROWS) {
          controller.close();
          return;
        }
        try {
          rows = await chunk(rows.at(-1) as { id: number; balance_after: number });
        } catch (error) {
          // the answer has begun: all that is left is to cut the download short, so the file is visibly incomplete
          console.error(JSON.stringify({ level: 'error', route: c.req.routePath, error: String(error) }));
          controller.error(error);
        }
      },
    });
    return c.body(body, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="statement-${from}-to-${to}.csv"`,
    });
  });

  return app;
}
