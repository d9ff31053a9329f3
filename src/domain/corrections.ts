/**
 * A wrong result corrected, shared by the SPA and the API: the proposal an admin sends, the correction as
 * answered, and what players and admins read of it. The rules live in the database
 * (supabase/schemas/36_corrections.sql), which repeats the reason's bounds and messages.
 */
import { z } from 'zod';
import { timestamp } from './entities.ts';
import { LONG_TEXT } from './limits.ts';

export const CORRECTION_REASON = { min: 10, max: 200 } as const;
export const SECOND_ADMIN_FOR_CORRECTION = 'A second administrator must approve this correction';
export const BELOW_ZERO = 'Your balance is below zero after a result correction. Recharge to continue.';

export const correctionMessages = {
  reasonMin: `Please give a reason of at least ${CORRECTION_REASON.min} characters`,
  reasonMax: `The reason must be at most ${CORRECTION_REASON.max} characters`,
  outcome: 'Please select a winning team or abandon the match',
} as const;

/**
 * POST /api/admin/matches/{id}/correct-result: the right winner (`winning_team_id`; `result` is the server's,
 * like a declaration's) or `abandon: true`, and why. The database says which of the two is missing or both.
 */
export const correctResultSchema = z.object({
  winning_team_id: z.coerce
    .number({ error: 'Invalid winning team' })
    .int('Invalid winning team')
    .positive('Invalid winning team')
    .optional(),
  result: z.string().max(LONG_TEXT, `Result must be at most ${LONG_TEXT} characters`).optional(),
  abandon: z.boolean({ error: 'abandon must be true or false' }).optional(),
  reason: z
    .string({ error: correctionMessages.reasonMin })
    .trim()
    .min(CORRECTION_REASON.min, correctionMessages.reasonMin)
    .max(CORRECTION_REASON.max, correctionMessages.reasonMax),
});
export type CorrectResultInput = z.infer<typeof correctResultSchema>;

export const CORRECTION_STATUSES = ['pending', 'rejected', 'applying', 'applied'] as const;

/** A correction of a match's result. GET /api/admin/matches/{id}/corrections, its proposal and decisions. */
export const resultCorrectionEntity = z.object({
  id: z.number().int(),
  match_id: z.number().int(),
  /** the right winner; null: abandoned */
  winning_team_id: z.number().int().nullable(),
  /** '{team} won the match' or 'Match abandoned' */
  result: z.string(),
  reason: z.string(),
  previous_winning_team_id: z.number().int().nullable(),
  previous_result: z.string(),
  /** pending (a second admin must approve), rejected, applying (its bets are being settled again), applied */
  status: z.enum(CORRECTION_STATUSES),
  proposed_by: z.number().int(),
  proposed_by_username: z.string(),
  decided_by: z.number().int().nullable(),
  decided_at: timestamp.nullable(),
  applied_at: timestamp.nullable(),
  created_at: timestamp,
});
export type ResultCorrection = z.infer<typeof resultCorrectionEntity>;

/** The 202 of a proposal: it waits for a second administrator. */
export const pendingCorrectionEntity = z.object({
  message: z.literal(SECOND_ADMIN_FOR_CORRECTION),
  correction: resultCorrectionEntity,
});
export type PendingCorrection = z.infer<typeof pendingCorrectionEntity>;

/** What players and admins read on a corrected match. */
export function correctionLabel(reason: string): string {
  return `Result corrected: ${reason}`;
}

/** The toast a player gets when a correction reaches their bets on a match ('MI vs CSK'). */
export function correctionNoticeTitle(match: string): string {
  return `The result of ${match} was corrected`;
}
