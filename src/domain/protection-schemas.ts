/**
 * Player protection's request schemas and the answer of GET /api/account/limits (zod), shared by the SPA's
 * forms and the API. The numbers and messages they check against are protection.ts's.
 */
import { z } from 'zod';
import {
  LIMIT_PERIODS,
  MAX_DEPOSIT_LIMIT,
  MIN_DEPOSIT_LIMIT,
  REALITY_CHECK_MINUTES,
  SELF_EXCLUSION_MONTHS,
  TIMEOUT_DAYS,
  protectionMessages,
} from './protection.ts';

/** PUT /api/account/limits: `amount` null removes the period's limit. */
export const depositLimitSchema = z.object({
  period: z.enum(LIMIT_PERIODS, { error: protectionMessages.periodInvalid }),
  amount: z
    .number({ error: protectionMessages.limitRange })
    .int(protectionMessages.limitRange)
    .min(MIN_DEPOSIT_LIMIT, protectionMessages.limitRange)
    .max(MAX_DEPOSIT_LIMIT, protectionMessages.limitRange)
    .nullable(),
});

/** The form's fields as typed: the amount's digits ('' is no amount, refused with the range message). */
export const depositLimitFormSchema = z.object({
  period: depositLimitSchema.shape.period,
  amount: z.coerce.number({ error: protectionMessages.limitRange }).pipe(depositLimitSchema.shape.amount.unwrap()),
});

/** One of `values`, stated as an enum in the API's document (the generator would list only the first). */
const oneOf = <const T extends readonly number[]>(values: T, message: string) =>
  z.literal(values, { error: message }).meta({ enum: [...values] });

export const timeoutSchema = z.object({ days: oneOf(TIMEOUT_DAYS, protectionMessages.timeoutDays) });

export const selfExclusionSchema = z.object({
  months: oneOf(SELF_EXCLUSION_MONTHS, protectionMessages.selfExclusionMonths),
});

/** The take-a-break forms' one field, as their select holds it. */
export const timeoutFormSchema = z.object({ length: z.coerce.number().pipe(timeoutSchema.shape.days) });
export const selfExclusionFormSchema = z.object({ length: z.coerce.number().pipe(selfExclusionSchema.shape.months) });

/** GET and PUT /api/account/reality-check: how often a reality check comes (null: never). */
export const realityCheckSchema = z.object({
  interval_minutes: oneOf(REALITY_CHECK_MINUTES, protectionMessages.realityCheckMinutes)
    .nullable()
    .meta({ enum: [...REALITY_CHECK_MINUTES, null], description: 'Minutes between reality checks; null: never' }),
});

/** The reality-check form's one field as its select holds it ('' is never). */
export const realityCheckFormSchema = z.object({
  interval: z
    .string()
    .transform((value) => (value === '' ? null : Number(value)))
    .pipe(realityCheckSchema.shape.interval_minutes),
});

/** POST /api/account/limit-prompt: the answer to the prompt before the first deposit, a limit or 'Not now'. */
export const limitPromptAnswerSchema = z.discriminatedUnion('answer', [
  z.object({
    answer: z.literal('set_limit'),
    period: depositLimitSchema.shape.period,
    amount: depositLimitSchema.shape.amount.unwrap(),
  }),
  z.object({ answer: z.literal('not_now') }),
]);

/** A statement's range: calendar days in India Standard Time, both included. */
export const statementRangeSchema = z
  .object({
    from: z.iso.date({ error: protectionMessages.dateInvalid }),
    to: z.iso.date({ error: protectionMessages.dateInvalid }),
  })
  .refine((range) => range.from <= range.to, { message: protectionMessages.dateOrder, path: ['to'] });

const timestamp = z.string().describe('ISO 8601 timestamp');
const perPeriod = z.object({
  daily: z.number().int().nullable(),
  weekly: z.number().int().nullable(),
  monthly: z.number().int().nullable(),
});

/** GET /api/account/limits and the answers of the protection writes. */
export const accountLimitsEntity = z.object({
  /** the limits in force now (null = none) */
  deposit_limits: perPeriod,
  /** what may still be deposited in each window now (null without a limit) */
  deposit_remaining: perPeriod,
  /** raises and removals waiting out their 24 hours (at most one per period) */
  pending_changes: z.array(
    z.object({
      period: z.enum(LIMIT_PERIODS),
      amount: z.number().int().nullable(),
      requested_at: timestamp,
      effective_at: timestamp,
    }),
  ),
  timeout_until: timestamp.nullable(),
  self_excluded_until: timestamp.nullable(),
  /** the deposit-limit prompt is due: no answer to it, no deposit and no limit yet */
  limit_prompt_due: z.boolean(),
});

/** GET /api/account/play-session: this play session, with the server's time and figures. */
export const playSessionEntity = z.object({
  /** sign-in, or the first request after 30 minutes away */
  started_at: timestamp,
  /** the server's time when it answered: the app's clock runs from it, not from the device's */
  now: timestamp,
  interval_minutes: realityCheckSchema.shape.interval_minutes,
  /** staked on bets since the session began */
  staked: z.number().int(),
  /** paid back by bets since (winnings and refunds) */
  won: z.number().int(),
  /** won minus staked */
  net: z.number().int(),
});

export type DepositLimitInput = z.infer<typeof depositLimitSchema>;
export type AccountLimits = z.infer<typeof accountLimitsEntity>;
export type RealityCheck = z.infer<typeof realityCheckSchema>;
export type LimitPromptAnswer = z.infer<typeof limitPromptAnswerSchema>;
export type PlaySession = z.infer<typeof playSessionEntity>;
