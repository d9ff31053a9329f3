/**
 * The house-risk settings (/api/admin/settings): read, change (a loosening waits for a second
 * administrator), and the pending changes approved or rejected. The rules, the admin check and the audit rows are the database's
 * (supabase/schemas/60_house_risk.sql, 61_settings.sql); each route is one app.* call in one round trip.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  pendingSettingsChangeEntity,
  riskSettingsSchema,
  riskSettingsUpdateSchema,
  SECOND_ADMIN_FOR_CHANGE,
  settingsChangeEntity,
} from '@/domain/risk.ts';
import { answer } from '../../context.ts';
import { errors, idParams, json, jsonBody, router } from '../../openapi.ts';

const tags = ['admin: house risk'];

const settingsRoute = createRoute({
  operationId: 'adminGetSettings',
  method: 'get',
  path: '/',
  tags,
  summary: 'The house-risk settings',
  responses: { 200: json(riskSettingsSchema, 'The settings'), ...errors(401, 403) },
});
const updateSettingsRoute = createRoute({
  operationId: 'adminUpdateSettings',
  method: 'put',
  path: '/',
  tags,
  summary: 'Change house-risk settings (those left out keep their value); every change is audited',
  description:
    'Raising adjustment_review_amount or admin_credit_per_day loosens a control on the money admins create: ' +
    'that part is not applied but waits for another admin (202); every other change applies at once.',
  request: { body: jsonBody(riskSettingsUpdateSchema, { max_stake_per_bet: 50_000, betting_close_over: 15 }) },
  responses: {
    200: json(riskSettingsSchema, 'The settings as they now are'),
    202: json(
      pendingSettingsChangeEntity,
      'The loosening part waits for a second administrator (the rest of the request is applied)',
    ),
    ...errors(400, 401, 403),
  },
});
const changesRoute = createRoute({
  operationId: 'adminListSettingsChanges',
  method: 'get',
  path: '/changes',
  tags,
  summary: 'Settings changes waiting for a second administrator, newest first',
  responses: { 200: json(z.array(settingsChangeEntity), 'Pending changes'), ...errors(401, 403) },
});
const decideRoute = (decision: 'approve' | 'reject') =>
  createRoute({
    operationId: decision === 'approve' ? 'adminApproveSettingsChange' : 'adminRejectSettingsChange',
    method: 'post',
    path: `/changes/{id}/${decision}`,
    tags,
    summary:
      decision === 'approve'
        ? 'Apply a pending settings change (never by the admin who proposed it)'
        : 'Drop a pending settings change (its proposer may withdraw it)',
    request: { params: idParams },
    responses: {
      200: json(settingsChangeEntity, `The change, ${decision === 'approve' ? 'approved and applied' : 'rejected'}`),
      ...errors(400, 401, 403, 404, 409),
    },
  });

export function adminSettingsRoutes() {
  const app = router();

  app.openapi(settingsRoute, (c) =>
    answer<typeof settingsRoute>(
      c,
      'service',
      (q) => q`select to_jsonb(s)::text as body from app.get_risk_settings() s`,
    ),
  );
  app.openapi(updateSettingsRoute, (c) => {
    const changes = c.req.valid('json');
    return answer<typeof updateSettingsRoute>(
      c,
      'service',
      (q) => q`
      select case when p.pending then jsonb_build_object('message', ${SECOND_ADMIN_FOR_CHANGE}::text, 'change', r -> 'change')
                  else r -> 'settings' end::text as body,
             case when p.pending then 202 else 200 end as status
      from app.update_risk_settings(${q.json(changes)}) r
      cross join lateral (select jsonb_typeof(r -> 'change') = 'object' as pending) p`,
    );
  });
  app.openapi(changesRoute, (c) =>
    answer<typeof changesRoute>(c, 'service', (q) => q`select app.pending_settings_changes()::text as body`),
  );
  for (const decision of ['approve', 'reject'] as const) {
    app.openapi(decideRoute(decision), (c) => {
      const { id } = c.req.valid('param');
      return answer<ReturnType<typeof decideRoute>>(
        c,
        'service',
        (q) => q`select app.decide_settings_change(${id}, ${decision === 'approve'})::text as body`,
      );
    });
  }

  return app;
}
