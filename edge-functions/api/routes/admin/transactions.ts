/**
 * Spec §7.3 back office: all transactions, approve / reject a pending one, the dashboard statistics, and
 * GET /api/admin/audit-log (beyond the spec: who changed what).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { auditLogEntity, dashboardStatsEntity, transactionEntity, type DashboardStats, type Transaction } from '../../../../src/domain/entities.ts';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../../../../src/domain/limits.ts';
import { withCaller, type RequestTx } from '../../context.ts';
import { errors, idParams, json, router } from '../../openapi.ts';
import { listAuditLog } from '../../queries.ts';

const transactionsQuery = z.object({
  type: z.enum(TRANSACTION_TYPES, { error: 'Invalid transaction type' }).optional(),
  status: z.enum(TRANSACTION_STATUSES, { error: 'Invalid transaction status' }).optional(),
});
const auditQuery = z.object({
  limit: z.coerce.number({ error: 'Invalid limit' }).int('Invalid limit').min(1, 'Invalid limit').max(1000, 'Invalid limit').default(200),
});

const listRoute = createRoute({
  method: 'get', path: '/transactions', tags: ['admin: transactions'], summary: 'All transactions, newest first',
  request: { query: transactionsQuery },
  responses: { 200: json(z.array(transactionEntity), 'Transactions'), ...errors(400, 401, 403) },
});
const approveRoute = createRoute({
  method: 'patch', path: '/transactions/{id}/approve', tags: ['admin: transactions'],
  summary: 'Approve a pending deposit (credit) or withdrawal (debit)',
  request: { params: idParams },
  responses: { 200: json(transactionEntity, 'The completed transaction'), ...errors(400, 401, 403, 404, 409) },
});
const rejectRoute = createRoute({
  method: 'patch', path: '/transactions/{id}/reject', tags: ['admin: transactions'],
  summary: 'Reject a pending transaction (marked failed, no funds move)',
  request: { params: idParams },
  responses: { 200: json(transactionEntity, 'The failed transaction'), ...errors(400, 401, 403, 404, 409) },
});
const statsRoute = createRoute({
  method: 'get', path: '/dashboard/stats', tags: ['admin: dashboard'], summary: 'Dashboard statistics (spec §3.7)',
  responses: { 200: json(dashboardStatsEntity, 'Statistics'), ...errors(401, 403) },
});
const auditRoute = createRoute({
  method: 'get', path: '/audit-log', tags: ['admin: dashboard'], summary: 'Audit log of admin writes, newest first',
  request: { query: auditQuery },
  responses: { 200: json(z.array(auditLogEntity), 'Audit entries'), ...errors(400, 401, 403) },
});

async function settle(db: RequestTx, fn: 'approve' | 'reject', id: number): Promise<Transaction> {
  await db.asService();
  const [row] = fn === 'approve'
    ? await db.tx<{ t: Transaction }[]>`select to_jsonb(t) as t from app.approve_transaction(${id}) t`
    : await db.tx<{ t: Transaction }[]>`select to_jsonb(t) as t from app.reject_transaction(${id}) t`;
  return row.t;
}

export function adminTransactionRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const { type, status } = c.req.valid('query');
    const rows = await withCaller(c, (db) => db.tx<{ t: Transaction }[]>`
      select to_jsonb(t) as t from public.transactions t
      where true ${type ? db.tx`and t.type = ${type}` : db.tx``} ${status ? db.tx`and t.status = ${status}` : db.tx``}
      order by t.created_at desc, t.id desc`);
    return c.json(rows.map((row) => row.t), 200);
  });
  app.openapi(approveRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await withCaller(c, (db) => settle(db, 'approve', id)), 200);
  });
  app.openapi(rejectRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await withCaller(c, (db) => settle(db, 'reject', id)), 200);
  });
  app.openapi(statsRoute, async (c) => {
    const stats = await withCaller(c, async (db) => {
      await db.asService();
      const [row] = await db.tx<{ stats: DashboardStats }[]>`select app.dashboard_stats() as stats`;
      return row.stats;
    });
    return c.json(stats, 200);
  });
  app.openapi(auditRoute, async (c) => {
    const { limit } = c.req.valid('query');
    return c.json(await withCaller(c, (db) => listAuditLog(db.tx, limit)), 200);
  });

  return app;
}
