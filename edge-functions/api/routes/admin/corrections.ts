/**
 * A wrong result corrected: an admin proposes the right outcome of a completed match (202: a second
 * administrator must approve), the match's corrections are listed on its admin page, and another admin
 * approves (its bets are settled again by the settlement workers, right after the answer) or rejects it.
 * The rules, the admin check and the audit rows are the database's (supabase/schemas/36_corrections.sql);
 * each write is one app.* call, with an Idempotency-Key like every admin money write.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  correctResultSchema,
  pendingCorrectionEntity,
  resultCorrectionEntity,
  SECOND_ADMIN_FOR_CORRECTION,
  type ResultCorrection,
} from '../../../../src/domain/corrections.ts';
import type { SettlementWorker } from '../../../_shared/settlement-worker.ts';
import { answer, sendJson } from '../../context.ts';
import { answerMoneyWrite, moneyWrite } from '../../idempotency.ts';
import { errors, idempotencyHeaders, idParams, json, router } from '../../openapi.ts';

const tags = ['admin: matches'];

const proposeRoute = createRoute({
  operationId: 'adminProposeResultCorrection',
  method: 'post',
  path: '/matches/{id}/correct-result',
  tags,
  summary:
    'Propose the right result of a completed or abandoned match (a winning team, or abandon) within 7 days of its ' +
    'declaration, with a reason of 10-200 characters; another administrator must approve it',
  request: {
    params: idParams,
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: correctResultSchema,
          example: { winning_team_id: 2, reason: 'Wrong team tapped in the confirmation dialog' },
        },
      },
    },
  },
  responses: {
    202: json(pendingCorrectionEntity, 'The correction, waiting for a second administrator'),
    ...errors(400, 401, 403, 404, 409),
  },
});
const listRoute = createRoute({
  operationId: 'adminListResultCorrections',
  method: 'get',
  path: '/matches/{id}/corrections',
  tags,
  summary: "A match's result corrections, newest first (pending, rejected, applying or applied)",
  request: { params: idParams },
  responses: { 200: json(z.array(resultCorrectionEntity), 'Corrections'), ...errors(400, 401, 403, 404) },
});
const decideRoute = (decision: 'approve' | 'reject') =>
  createRoute({
    operationId: decision === 'approve' ? 'adminApproveResultCorrection' : 'adminRejectResultCorrection',
    method: 'post',
    path: `/corrections/{id}/${decision}`,
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

  app.openapi(proposeRoute, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    return answerMoneyWrite(
      c,
      'admin',
      { scope: `POST /api/admin/matches/${id}/correct-result`, request: input, status: 'answered' },
      (q) => q`
        select jsonb_build_object('message', ${SECOND_ADMIN_FOR_CORRECTION}::text, 'correction', c)::text as body,
               202 as status
        from app.propose_result_correction(${id}, ${input.winning_team_id ?? null}, ${input.result ?? null},
                                           ${input.abandon ?? false}, ${input.reason}) c`,
    );
  });
  app.openapi(listRoute, (c) => {
    const { id } = c.req.valid('param');
    return answer(c, 'admin', 'service', (q) => q`select app.match_result_corrections(${id})::text as body`);
  });
  for (const decision of ['approve', 'reject'] as const) {
    app.openapi(decideRoute(decision), async (c) => {
      const { id } = c.req.valid('param');
      const { body } = await moneyWrite(
        c,
        'admin',
        { scope: `POST /api/admin/corrections/${id}/${decision}`, request: {}, status: 200 },
        (q) => q`select app.decide_result_correction(${id}, ${decision === 'approve'})::text as body`,
      );
      if ((JSON.parse(body) as ResultCorrection).status === 'applying') settlement.kickAfterAnswer();
      return sendJson(c, body);
    });
  }

  return app;
}
