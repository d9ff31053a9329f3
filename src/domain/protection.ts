/**
 * Player protection (responsible gambling), shared by the SPA and the API: the numbers, the messages and what
 * they mean for a player now; the request schemas and the answer of GET /api/account/limits are in
 * protection-schemas.ts (zod, which the player's first screens load only after their first paint). The
 * database enforces the same rules again (supabase/schemas/50_player_protection.sql);
 * tests/db/limits-agree.test.ts proves they agree.
 */
import { MIN_DEPOSIT, oneOf } from './limits.ts';
import type { AccountLimits } from './protection-schemas.ts';

/** Deposit limits run over rolling windows: daily = 24 hours, weekly = 7 days, monthly = 30 days. */
export const LIMIT_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
export const LIMIT_PERIOD_WINDOWS: Record<LimitPeriod, string> = {
  daily: '24 hours',
  weekly: '7 days',
  monthly: '30 days',
};

/** A limit below the smallest deposit would only block deposits (a time-out does that); above 1 crore is no limit. */
export const MIN_DEPOSIT_LIMIT = MIN_DEPOSIT;
export const MAX_DEPOSIT_LIMIT = 10_000_000;
/** Raising or removing a limit applies this long after the request; setting or lowering one, at once. */
export const LIMIT_RAISE_DELAY_HOURS = 24;

/** A reality check comes every 15, 30 or 60 minutes of play (null: never); 60 until the player chooses. */
export const REALITY_CHECK_MINUTES = [15, 30, 60] as const;
export type RealityCheckMinutes = (typeof REALITY_CHECK_MINUTES)[number];
export const DEFAULT_REALITY_CHECK_MINUTES: RealityCheckMinutes = 60;

export const TIMEOUT_DAYS = [1, 7, 30, 42] as const;
export const SELF_EXCLUSION_MONTHS = [6, 12, 60] as const;
export type TimeoutDays = (typeof TIMEOUT_DAYS)[number];
export type SelfExclusionMonths = (typeof SELF_EXCLUSION_MONTHS)[number];

/** The texts of the database's refusals that the schemas give first. */
export const protectionMessages = {
  periodInvalid: `Period must be one of ${LIMIT_PERIODS.join(', ')}`,
  /** rupees in Indian digit grouping: ₹1,00,00,000 */
  limitRange: `Deposit limit must be between ₹${MIN_DEPOSIT_LIMIT.toLocaleString('en-IN')} and ₹${MAX_DEPOSIT_LIMIT.toLocaleString('en-IN')}`,
  timeoutDays: `A time-out lasts ${oneOf(TIMEOUT_DAYS)} days`,
  selfExclusionMonths: `A self-exclusion lasts ${oneOf(SELF_EXCLUSION_MONTHS)} months`,
  dateInvalid: 'Dates must be written YYYY-MM-DD',
  dateOrder: 'The start date must be on or before the end date',
  onlyThePlayer: 'Only the player can change their own limits, time-out or self-exclusion',
  realityCheckMinutes: `A reality check comes every ${oneOf(REALITY_CHECK_MINUTES)} minutes, or never`,
} as const;

export interface Exclusion {
  kind: 'timeout' | 'self_exclusion';
  until: string;
}

/** The exclusion that decides until when the player is barred (the later end; self-exclusion on a tie), or null. */
export function activeExclusion(limits: AccountLimits | null | undefined): Exclusion | null {
  if (!limits) return null;
  const { timeout_until: timeout, self_excluded_until: excluded } = limits;
  if (excluded && (!timeout || Date.parse(excluded) >= Date.parse(timeout)))
    return { kind: 'self_exclusion', until: excluded };
  return timeout ? { kind: 'timeout', until: timeout } : null;
}

/** The limit that leaves least to deposit now (the shortest period on a tie), or null without limits. */
export function tightestLimit(
  limits: AccountLimits | null | undefined,
): { period: LimitPeriod; amount: number; remaining: number } | null {
  let tightest: { period: LimitPeriod; amount: number; remaining: number } | null = null;
  for (const period of LIMIT_PERIODS) {
    const amount = limits?.deposit_limits[period] ?? null;
    const remaining = limits?.deposit_remaining[period] ?? null;
    if (amount !== null && remaining !== null && (tightest === null || remaining < tightest.remaining)) {
      tightest = { period, amount, remaining };
    }
  }
  return tightest;
}
