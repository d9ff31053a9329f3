/**
 * House risk, shared by the SPA and the API: the house-risk settings (their bounds and
 * messages, which the database's app.check_risk_setting repeats; a database test asserts they agree) and the
 * risk view of a match. The rules themselves live in the database; a match's betting state is betting.ts's.
 */
import { z } from 'zod';
import { BETTING_STATES } from './betting.ts';
import { timestamp } from './entities.ts';
import { grouped, MATCH_OVERS, MAX_ADJUSTMENT, MIN_BET } from './limits.ts';
import { isPrice, priceMessages } from './price.ts';

/** The largest rupee amount a house-risk setting may hold. */
export const MAX_RISK_AMOUNT = 1_000_000_000;

/** Bounds of the settings that are not rupee limits of the book. */
export const STALE_SECONDS = { min: 30, max: 3600 } as const;
export const MAX_REFERRAL_BONUSES_PER_MONTH = 1000;

const between = (min: number, max: number) => `between ₹${grouped(min)} and ₹${grouped(max)}`;

export const riskMessages = {
  maxStakePerBet: `Maximum stake per bet must be ${between(MIN_BET, MAX_RISK_AMOUNT)}`,
  maxStakePerPlayerMatch: `Maximum stake per player per match must be ${between(MIN_BET, MAX_RISK_AMOUNT)}`,
  maxLiabilityPerMatch: `Liability limit per match must be ${between(0, MAX_RISK_AMOUNT)}`,
  bettingCloseOver: `Close over must be empty or between 0 and ${MATCH_OVERS} (overs.balls, balls 0-5)`,
  bettingPreMatchOnly: 'Pre-match only must be true or false',
  liveFeedStaleSeconds: `Stale live score must be empty or between ${grouped(STALE_SECONDS.min)} and ${grouped(STALE_SECONDS.max)} seconds`,
  referralBonusesPerMonth: `Referral bonuses per month must be between 0 and ${grouped(MAX_REFERRAL_BONUSES_PER_MONTH)}`,
  adjustmentReviewAmount: `Second approval threshold must be ${between(1, MAX_ADJUSTMENT)}`,
  adminCreditPerDay: `Daily credit limit per admin must be ${between(0, MAX_RISK_AMOUNT)}`,
  defaultOdds: priceMessages.defaultOdds,
} as const;

const whole = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);
const rupees = (min: number, message: string) => whole(min, MAX_RISK_AMOUNT, message);

/** An over as matches.current_over writes it: overs.balls, balls 0-5, within the innings. */
export function isOver(value: number): boolean {
  const tenths = Math.round(value * 10);
  return value >= 0 && value <= MATCH_OVERS && Math.abs(value * 10 - tenths) < 1e-9 && tenths % 10 <= 5;
}

/** GET /api/admin/settings, and every field PUT /api/admin/settings may change. */
export const riskSettingsSchema = z.object({
  /** the largest stake of one bet */
  max_stake_per_bet: rupees(MIN_BET, riskMessages.maxStakePerBet),
  /** the largest total one player may stake on one match */
  max_stake_per_player_match: rupees(MIN_BET, riskMessages.maxStakePerPlayerMatch),
  /** the most the house may lose on a match, whichever side wins (payouts on that side minus all stakes) */
  max_liability_per_match: rupees(0, riskMessages.maxLiabilityPerMatch),
  /** betting closes when a live match reaches this over of the second innings; null: open until the result */
  betting_close_over: z
    .number({ error: riskMessages.bettingCloseOver })
    .min(0, riskMessages.bettingCloseOver)
    .max(MATCH_OVERS, riskMessages.bettingCloseOver)
    .refine(isOver, riskMessages.bettingCloseOver)
    .meta({ description: 'overs.balls with balls 0-5 (12.5 is followed by 13.0)' })
    .nullable(),
  /** betting closes when a match starts */
  betting_pre_match_only: z.boolean({ error: riskMessages.bettingPreMatchOnly }),
  /** bets pause on a live match (or an upcoming one past its start) this long after its last live update; null: never */
  live_feed_stale_seconds: whole(STALE_SECONDS.min, STALE_SECONDS.max, riskMessages.liveFeedStaleSeconds).nullable(),
  /** referral bonuses one referrer may be paid in 30 days */
  referral_bonuses_per_month: whole(0, MAX_REFERRAL_BONUSES_PER_MONTH, riskMessages.referralBonusesPerMonth),
  /** admin credits of at least this wait for a second admin's approval */
  adjustment_review_amount: whole(1, MAX_ADJUSTMENT, riskMessages.adjustmentReviewAmount),
  /** what one admin may credit in 24 hours, pending credits included */
  admin_credit_per_day: rupees(0, riskMessages.adminCreditPerDay),
  /** the price (decimal odds) of both sides of a new match; admins then price each match */
  default_odds: z.number({ error: riskMessages.defaultOdds }).refine(isPrice, riskMessages.defaultOdds),
});
export type RiskSettings = z.infer<typeof riskSettingsSchema>;

/** PUT /api/admin/settings: the settings to change (those left out keep their value); unknown keys are a 400. */
export const riskSettingsUpdateSchema = riskSettingsSchema.partial().strict();

/**
 * The answer and the refusal when an admin tries to apply alone a change that loosens a control on admin
 * money (a higher adjustment_review_amount or admin_credit_per_day): it waits for another admin.
 */
export const SECOND_ADMIN_FOR_CHANGE = 'A second administrator must approve this change';

/** A settings change waiting for (or decided by) a second admin. GET /api/admin/settings/changes and its decisions. */
export const settingsChangeEntity = z.object({
  id: z.number().int(),
  /** the settings it sets, key → value */
  changes: riskSettingsSchema.partial(),
  /** their values when it was proposed */
  previous: riskSettingsSchema.partial(),
  status: z.enum(['pending', 'approved', 'rejected']),
  proposed_by: z.number().int(),
  proposed_by_username: z.string(),
  created_at: timestamp,
  decided_by: z.number().int().nullable(),
  decided_at: timestamp.nullable(),
});
export type SettingsChange = z.infer<typeof settingsChangeEntity>;

/** PUT /api/admin/settings, 202: the change loosens a control on admin money and waits for another admin. */
export const pendingSettingsChangeEntity = z.object({
  message: z.literal(SECOND_ADMIN_FOR_CHANGE),
  change: settingsChangeEntity,
});
export type PendingSettingsChange = z.infer<typeof pendingSettingsChangeEntity>;

const bookSide = z.object({
  bets: z.number().int(),
  staked: z.number().int(),
  /** what this side's backers are paid should it win */
  payout_if_wins: z.number().int(),
});

/** GET /api/admin/matches/{id}/risk: the match's book (bets not cancelled) and the house's net per winner. */
export const matchRiskEntity = z.object({
  team1: bookSide,
  team2: bookSide,
  /** all stakes minus team1's payout: negative is the house's loss should team1 win */
  net_if_team1_wins: z.number().int(),
  net_if_team2_wins: z.number().int(),
  betting: z.enum(BETTING_STATES),
  /** the match's prices now (each bet in the book keeps its own) */
  team1_odds: z.number(),
  team2_odds: z.number(),
  /** 100 × (1/team1_odds + 1/team2_odds), one decimal: below 100 backing both teams pays whichever wins */
  overround_percent: z.number(),
});
export type MatchRisk = z.infer<typeof matchRiskEntity>;
