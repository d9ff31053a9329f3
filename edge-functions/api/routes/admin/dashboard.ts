/**
 * The admin dashboard (mounted at /api/admin: its paths share no prefix): GET /api/admin/dashboard/stats and
 * GET /api/admin/audit-log (who changed what).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { auditLogEntity, dashboardStatsEntity } from '@/domain/admin-entities.ts';
import { answer } from '../../context.ts';
import { errors, json, router } from '../../openapi.ts';
import { auditLog } from '../../queries.ts';

const auditQuery = z.object({
  limit: z.coerce
    .number({ error: 'Invalid limit' })
    .int('Invalid limit')
    .min(1, 'Invalid limit')
    .max(1000, 'Invalid limit')
    .default(200),
});

const statsRoute = createRoute({
  operationId: 'adminGetDashboardStats',
  method: 'get',
  path: '/dashboard/stats',
  tags: ['admin: dashboard'],
  summary: 'Dashboard statistics',
  responses: { 200: json(dashboardStatsEntity, 'Statistics'), ...errors(401, 403) },
});
const auditRoute = createRoute({
  operationId: 'adminListAuditLog',
  method: 'get',
  path: '/audit-log',
  tags: ['admin: dashboard'],
  summary: 'Audit log of admin writes, newest first',
  request: { query: auditQuery },
  responses: { 200: json(z.array(auditLogEntity), 'Audit entries'), ...errors(400, 401, 403) },
});

export function adminDashboardRoutes() {
  const app = router();

  app.openapi(statsRoute, (c) =>
    answer<typeof statsRoute>(c, 'service', (q) => q`select app.dashboard_stats()::text as body`),
  );
  app.openapi(auditRoute, (c) =>
    answer<typeof auditRoute>(c, 'reader', (q) => auditLog(q, c.req.valid('query').limit)),
  );

  return app;
}
