/**
 * Player protection (responsible gambling), shared by the SPA and the API: the numbers, the request schemas
 * and the answer of GET /api/account/limits. The database enforces the same rules again
 * (supabase/migrations/…_player_protection.sql); tests/db/protection-limits-agree.test.ts proves they agree.
 * One module for the whole feature, beside limits.ts, schemas.ts and entities.ts, which follow the spec.
 */
import { z } from 'zod';
import { MIN_DEPOSIT } from './limits.ts';

/** Deposit limits run over rolling windows: daily = 24 hours, weekly = 7 days, monthly = 30 days. */
export const LIMIT_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
export const LIMIT_PERIOD_WINDOWS: Record<LimitPeriod, string> = { daily: '24 hours', weekly: '7 days', monthly: '30 days' };

/** A limit below the smallest deposit would only block deposits (a time-out does that); above 1 crore is no limit. */
export const MIN_DEPOSIT_LIMIT = MIN_DEPOSIT;
export const MAX_DEPOSIT_LIMIT = 10_000_000;
/** Raising or removing a limit applies this long after the request; setting or lowering one, at once. */
export const LIMIT_RAISE_DELAY_HOURS = 24;

export const TIMEOUT_DAYS = [1, 7, 30, 42] as const;
export const SELF_EXCLUSION_MONTHS = [6, 12, 60] as const;
export type TimeoutDays = (typeof TIMEOUT_DAYS)[number];
export type SelfExclusionMonths = (typeof SELF_EXCLUSION_MONTHS)[number];

/** The texts of the database's refusals that the schemas give first. */
export const protectionMessages = {
  periodInvalid: 'Period must be one of daily, weekly, monthly',
  limitRange: 'Deposit limit must be between ₹500 and ₹1,00,00,000',
  timeoutDays: 'A time-out lasts 1, 7, 30 or 42 days',
  selfExclusionMonths: 'A self-exclusion lasts 6, 12 or 60 months',
  dateInvalid: 'Dates must be written YYYY-MM-DD',
  dateOrder: 'The start date must be on or before the end date',
  onlyThePlayer: 'Only the player can change their own limits, time-out or self-exclusion',
} as const;

/** PUT /api/account/limits: `amount` null removes the period's limit. */
export const depositLimitSchema = z.object({
  period: z.enum(LIMIT_PERIODS, { error: protectionMessages.periodInvalid }),
  amount: z.number({ error: protectionMessages.limitRange }).int(protectionMessages.limitRange)
    .min(MIN_DEPOSIT_LIMIT, protectionMessages.limitRange).max(MAX_DEPOSIT_LIMIT, protectionMessages.limitRange).nullable(),
});

/** The form's fields as typed: the amount's digits ('' is no amount, refused with the range message). */
export const depositLimitFormSchema = z.object({
  period: depositLimitSchema.shape.period,
  amount: z.coerce.number({ error: protectionMessages.limitRange }).pipe(depositLimitSchema.shape.amount.unwrap()),
});

export const timeoutSchema = z.object({ days: z.literal(TIMEOUT_DAYS, { error: protectionMessages.timeoutDays }) });

export const selfExclusionSchema = z.object({
  months: z.literal(SELF_EXCLUSION_MONTHS, { error: protectionMessages.selfExclusionMonths }),
});

/** The take-a-break forms' one field, as their select holds it. */
export const timeoutFormSchema = z.object({ length: z.coerce.number().pipe(timeoutSchema.shape.days) });
export const selfExclusionFormSchema = z.object({ length: z.coerce.number().pipe(selfExclusionSchema.shape.months) });

/** A statement's range: calendar days in India Standard Time, both included. */
export const statementRangeSchema = z.object({
  from: z.iso.date({ error: protectionMessages.dateInvalid }),
  to: z.iso.date({ error: protectionMessages.dateInvalid }),
}).refine((range) => range.from <= range.to, { message: protectionMessages.dateOrder, path: ['to'] });

const timestamp = z.string().describe('ISO 8601 timestamp');
const perPeriod = z.object({ daily: z.number().int().nullable(), weekly: z.number().int().nullable(), monthly: z.number().int().nullable() });

/** GET /api/account/limits and the answers of the protection writes. */
export const accountLimitsEntity = z.object({
  /** the limits in force now (null = none) */
  deposit_limits: perPeriod,
  /** what may still be deposited in each window now (null without a limit) */
  deposit_remaining: perPeriod,
  /** raises and removals waiting out their 24 hours (at most one per period) */
  pending_changes: z.array(z.object({
    period: z.enum(LIMIT_PERIODS),
    amount: z.number().int().nullable(),
    requested_at: timestamp,
    effective_at: timestamp,
  })),
  timeout_until: timestamp.nullable(),
  self_excluded_until: timestamp.nullable(),
});

export type DepositLimitInput = z.infer<typeof depositLimitSchema>;
export type AccountLimits = z.infer<typeof accountLimitsEntity>;

export interface Exclusion {
  kind: 'timeout' | 'self_exclusion';
  until: string;
}

/** The exclusion that decides until when the player is barred (the later end; self-exclusion on a tie), or null. */
export function activeExclusion(limits: AccountLimits | null | undefined): Exclusion | null {
  if (!limits) return null;
  const { timeout_until: timeout, self_excluded_until: excluded } = limits;
  if (excluded && (!timeout || Date.parse(excluded) >= Date.parse(timeout))) return { kind: 'self_exclusion', until: excluded };
  return timeout ? { kind: 'timeout', until: timeout } : null;
}

/** The limit that leaves least to deposit now (the shortest period on a tie), or null without limits. */
export function tightestLimit(limits: AccountLimits | null | undefined): { period: LimitPeriod; amount: number; remaining: number } | null {
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
