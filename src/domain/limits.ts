/**
 * Business constants: each limit the SPA and the API check is defined here once, and the texts that name one
 * are built from it (messages.ts, risk.ts, protection.ts, price.ts). The SQL functions and constraints enforce
 * the same numbers again; tests/db/limits-agree.test.ts fails when the two differ. Limits the operator tunes
 * are settings (app.settings), not constants.
 */
export const MIN_BET = 1000;
export const BET_QUICK_ADDS = [100, 500, 1000, 5000] as const;
export const BET_STEP = 100;

export const MIN_DEPOSIT = 500;
export const MAX_DEPOSIT = 100_000;
export const DEPOSIT_QUICK_AMOUNTS = [500, 1000, 2000, 5000, 10000] as const;
export const DEFAULT_DEPOSIT = 1000;
export const PAYMENT_METHODS = ['upi'] as const;

export const MIN_WITHDRAWAL = 500;
export const MAX_WITHDRAWAL = 50_000;
/** A withdrawal needs at least one completed deposit of this size, ever. */
export const QUALIFYING_DEPOSIT = 1000;

export const MIN_ADJUSTMENT = 1;
export const MAX_ADJUSTMENT = 100_000;
export const MAX_NOTES = 200;

/** Registration and profile fields (characters). */
export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 6;
export const NAME_MIN = 2;

/** Bank account fields (characters). */
export const ACCOUNT_HOLDER_MIN = 3;
export const ACCOUNT_NUMBER_MIN = 9;
export const IFSC_LENGTH = 11;
export const BANK_NAME_MIN = 3;

/** Overs of a t20 innings: the latest over the close-over setting may name (each match type's: price.ts). */
export const MATCH_OVERS = 20;
export const MATCH_TYPES = ['t20', 'odi', 'test', 'ipl'] as const;
export const MATCH_STATUSES = ['upcoming', 'live', 'completed'] as const;
export const USER_STATUSES = ['active', 'suspended', 'banned'] as const;
export const USER_ROLES = ['user', 'admin'] as const;
export const TRANSACTION_TYPES = [
  'deposit',
  'withdrawal',
  'bet_placed',
  'bet_won',
  'bet_lost',
  'bet_refund',
  'referral_bonus',
  'admin_adjustment',
  'settlement_reversal',
] as const;
export const TRANSACTION_STATUSES = ['pending', 'completed', 'failed'] as const;
export const BET_STATUSES = ['placed', 'won', 'lost', 'cancelled'] as const;

/** Text lengths: the widths of the database's text columns (varchar(255), varchar(50)). */
export const LONG_TEXT = 255;
export const SHORT_TEXT = 50;

/** 100000 → '100,000': how the texts write a limit. */
export const grouped = (value: number) => value.toLocaleString('en-US');
/** ['a', 'b', 'c'] → 'a, b or c'. */
export const oneOf = (values: readonly (string | number)[]) =>
  values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}` : String(values[0]);

export type MatchType = (typeof MATCH_TYPES)[number];
export type MatchStatus = (typeof MATCH_STATUSES)[number];
export type UserStatus = (typeof USER_STATUSES)[number];
export type UserRole = (typeof USER_ROLES)[number];
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type BetStatus = (typeof BET_STATUSES)[number];
