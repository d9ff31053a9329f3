/**
 * A wrong result corrected (/api/admin/corrections): another admin approves a proposed correction (its bets
 * are settled again by the settlement workers, right after the answer) or rejects it. Proposing one and a
 * match's list are routes of the match (admin/matches.ts).
 * The rules, the admin check and the audit rows are the database's (supabase/schemas/36_corrections.sql);
 * each write is one app.* call, with an Idempotency-Key like every admin money write.
 */
import { createRoute } from '@hono/zod-openapi';
import { resultCorrectionEntity, type ResultCorrection } from '@/domain/corrections.ts';
import type { SettlementWorker } from '@shared/settlement-worker.ts';
import { sendJson } from '../../context.ts';
import { moneyWrite } from '../../idempotency.ts';
import { errors, idempotencyHeaders, idParams, json, router } from '../../openapi.ts';

const tags = ['admin: matches'];

const decideRoute = (decision: 'approve' | 'reject') =>
  createRoute({
    operationId: decision === 'approve' ? 'adminApproveResultCorrection' : 'adminRejectResultCorrection',
    method: 'post',
    path: `/{id}/${decision}`,
    tags,
    summary:
      decision === 'approve'
        ? 'Apply a pending correction (never by the admin who proposed it): the match takes its new result, and its ' +
          'bets are settled again in batches right after (each earlier payout or refund reversed)'
        : 'Drop a pending correction (its proposer may withdraw it)',
    request: { params: idParams, headers: idempotencyHeaders },
    responses: {
      200: json(
        resultCorrectionEntity,
        `The correction, ${decision === 'approve' ? 'applying (or applied)' : 'rejected'}`,
      ),
      ...errors(400, 401, 403, 404, 409),
    },
  });

export function adminCorrectionRoutes(settlement: SettlementWorker) {
  const app = router();

  for (const decision of ['approve', 'reject'] as const) {
    app.openapi(decideRoute(decision), async (c) => {
      const { id } = c.req.valid('param');
      const { body } = await moneyWrite(
        c,
        { scope: `POST /api/admin/corrections/${id}/${decision}`, request: {}, status: 200 },
        (q) => q`select app.decide_result_correction(${id}, ${decision === 'approve'})::text as body`,
      );
      if ((JSON.parse(body) as ResultCorrection).status === 'applying') settlement.kickAfterAnswer();
      return sendJson<ReturnType<typeof decideRoute>>(c, body, 200);
    });
  }

  return app;
}
