/**
 * The back office's transactions (/api/admin/transactions): all of them, the pending counts, and approve /
 * reject a pending one.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { firstApprovalEntity, transactionCountsEntity } from '@/domain/admin-entities.ts';
import { transactionEntity } from '@/domain/entities.ts';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@/domain/limits.ts';
import { answer, query } from '../../context.ts';
import { answerMoneyWrite } from '../../idempotency.ts';
import { errors, idempotencyHeaders, idParams, json, page, router } from '../../openapi.ts';
import { pageOf, pageQuery, sendPage } from '../../paging.ts';
import { transactionPage } from '../../queries.ts';

const transactionsQuery = pageQuery.extend({
  type: z.enum(TRANSACTION_TYPES, { error: 'Invalid transaction type' }).optional(),
  status: z.enum(TRANSACTION_STATUSES, { error: 'Invalid transaction status' }).optional(),
  q: z
    .string()
    .trim()
    .max(255, 'Search must be at most 255 characters')
    .optional()
    .describe(
      'Search transactions: a transaction id or user id (digits, an optional leading #), else a whole reference id.',
    ),
});
const listRoute = createRoute({
  operationId: 'adminListTransactions',
  method: 'get',
  path: '/',
  tags: ['admin: transactions'],
  summary: 'All transactions, newest first: search, type and status',
  request: { query: transactionsQuery },
  responses: { 200: page(transactionEntity, 'Transactions'), ...errors(400, 401, 403) },
});
const countsRoute = createRoute({
  operationId: 'adminCountTransactions',
  method: 'get',
  path: '/counts',
  tags: ['admin: transactions'],
  summary: "The counts of the pending tabs (the admins' queue)",
  responses: {
    200: json(transactionCountsEntity, 'Pending deposits, withdrawals and admin credits'),
    ...errors(401, 403),
  },
});
const approveRoute = createRoute({
  operationId: 'adminApproveTransaction',
  method: 'patch',
  path: '/{id}/approve',
  tags: ['admin: transactions'],
  summary: "Approve a pending deposit (credit), withdrawal (debit) or another admin's credit",
  description:
    'From adjustment_review_amount up a deposit or a withdrawal needs two admins: the first approval answers 202 ' +
    'and leaves it pending, the same admin again is a 403. Every approved deposit counts against the ' +
    "approving admin's admin_credit_per_day (409 'Daily credit limit reached').",
  request: { params: idParams, headers: idempotencyHeaders },
  responses: {
    200: json(transactionEntity, 'The completed transaction'),
    202: json(firstApprovalEntity, 'Approved once: the transaction waits for a second administrator'),
    ...errors(400, 401, 403, 404, 409),
  },
});
const rejectRoute = createRoute({
  operationId: 'adminRejectTransaction',
  method: 'patch',
  path: '/{id}/reject',
  tags: ['admin: transactions'],
  summary: 'Reject a pending transaction (marked failed, no funds move)',
  request: { params: idParams, headers: idempotencyHeaders },
  responses: {
    200: json(transactionEntity, 'The failed transaction'),
    ...errors(400, 401, 403, 404, 409),
  },
});
export function adminTransactionRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const { type, status, q: search, ...paging } = c.req.valid('query');
    const [rows] = await query(c, 'reader', (q) => [
      transactionPage(q, pageOf(paging), { everyone: true, type, status, search }),
    ]);
    return sendPage<typeof listRoute>(c, rows);
  });
  // Only deposits and withdrawals can be pending (transactions_status_by_type); the pending index answers.
  app.openapi(countsRoute, (c) =>
    answer<typeof countsRoute>(
      c,
      'reader',
      (q) => q`
    select json_build_object(
             'pending_deposits', count(*) filter (where t.type = 'deposit'),
             'pending_withdrawals', count(*) filter (where t.type = 'withdrawal'),
             'pending_adjustments', count(*) filter (where t.type = 'admin_adjustment'))::text as body
    from public.transactions t
    where t.status = 'pending'`,
    ),
  );
  app.openapi(approveRoute, (c) => {
    const { id } = c.req.valid('param');
    return answerMoneyWrite<typeof approveRoute>(
      c,
      { scope: `PATCH /api/admin/transactions/${id}/approve`, request: {}, status: 'answered' },
      (q) => q`
      select case when t.status = 'pending'
                  then jsonb_build_object('message', app.second_admin_notice(t.type), 'transaction', to_jsonb(t))
                  else to_jsonb(t) end::text as body,
             case when t.status = 'pending' then 202 else 200 end as status
      from app.approve_transaction(${id}) t`,
    );
  });
  app.openapi(rejectRoute, (c) => {
    const { id } = c.req.valid('param');
    return answerMoneyWrite<typeof rejectRoute>(
      c,
      { scope: `PATCH /api/admin/transactions/${id}/reject`, request: {}, status: 200 },
      (q) => q`select to_jsonb(t)::text as body from app.reject_transaction(${id}) t`,
    );
  });

  return app;
}
