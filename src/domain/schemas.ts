/**
 * Request schemas (zod) shared by the SPA forms and the API: the rules and messages.
 * Unknown keys are stripped, so fields a client must not decide (role, status, user_id …) never pass.
 */
import { z } from 'zod';
import {
  ACCOUNT_HOLDER_MIN,
  ACCOUNT_NUMBER_MIN,
  BANK_NAME_MIN,
  IFSC_LENGTH,
  LONG_TEXT,
  MATCH_TYPES,
  MAX_ADJUSTMENT,
  MAX_DEPOSIT,
  MAX_NOTES,
  MAX_WITHDRAWAL,
  MIN_ADJUSTMENT,
  MIN_BET,
  MIN_DEPOSIT,
  MIN_WITHDRAWAL,
  NAME_MIN,
  PASSWORD_MIN,
  PAYMENT_METHODS,
  SHORT_TEXT,
  USER_STATUSES,
  USERNAME_MIN,
} from './limits.ts';
import { messages } from './messages.ts';
import { hasTwoDecimals, MAX_OVER, ODDS_RANGE, priceMessages, SCORE_PATTERN } from './price.ts';

/** A row id: a positive whole number a JSON number holds exactly (what a bigint id can be here). */
export const rowId = (message = 'Invalid id') =>
  z.coerce.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message);
const maxText = (field: string, max: number) => `${field} must be at most ${max} characters`;

/** Postgres text cannot hold NUL (it would fail in SQL): every text field refuses it with a 400. */
export const invalidCharacters = (field: string) => `${field} contains invalid characters`;
// eslint-disable-next-line no-control-regex -- NUL is exactly the character refused
const NO_NUL = /^[^\u0000]*$/;
/** A trimmed string of `field` without NUL; `message` when it is not a string at all. */
const text = (field: string, message?: string) =>
  z
    .string(message ? { error: message } : undefined)
    .trim()
    .regex(NO_NUL, invalidCharacters(field));
/** A number that may be left out, or sent as null, meaning the same (never coerced to 0). */
const leftOutWhenNull = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === null ? undefined : value), schema.optional());

const optionalText = (field: string, max: number) =>
  text(field)
    .max(max, maxText(field, max))
    .optional()
    .nullable()
    .transform((value) => value || null);

/** Usernames: ASCII letters, digits, dots, hyphens and underscores (no zero-width or bidi look-alikes). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const usernameCharacters = 'Username may contain only letters, digits, dots, hyphens and underscores';

export const loginSchema = z.object({
  // Sign-in stays lenient about characters (an unknown name is a 401 like any other); NUL is refused.
  username: text('Username', messages.usernameMin)
    .min(USERNAME_MIN, messages.usernameMin)
    .max(LONG_TEXT, maxText('Username', LONG_TEXT)),
  password: z
    .string({ error: messages.passwordMin })
    .min(PASSWORD_MIN, messages.passwordMin)
    .max(LONG_TEXT, maxText('Password', LONG_TEXT)),
  /** An admin with two-factor sign-in: the authenticator's 6 digits or a recovery code. */
  totp_code: z.string().trim().max(32, 'Invalid code').optional(),
});

export const registerSchema = z.object({
  name: text('Name', messages.nameMin).min(NAME_MIN, messages.nameMin).max(LONG_TEXT, maxText('Name', LONG_TEXT)),
  username: loginSchema.shape.username.regex(USERNAME_PATTERN, usernameCharacters),
  email: text('Email', messages.emailInvalid)
    .max(LONG_TEXT, maxText('Email', LONG_TEXT))
    .pipe(z.email(messages.emailInvalid))
    .meta({ format: 'email', maxLength: LONG_TEXT }),
  password: loginSchema.shape.password,
  phone: optionalText('Phone', SHORT_TEXT),
  referral_code: optionalText('Referral code', SHORT_TEXT),
});

/**
 * PATCH /api/user: the caller's name and phone number (a key left out keeps its value; an empty or null phone
 * removes it). A phone number another account has is a 409 'This phone number is already in use'.
 */
export const profileSchema = z.object({
  name: registerSchema.shape.name.optional(),
  phone: text('Phone').max(SHORT_TEXT, maxText('Phone', SHORT_TEXT)).nullable().optional(),
});

/** The profile form: the name and the phone number as typed (an empty phone is sent as null: removed). */
export const profileFormSchema = z.object({
  name: registerSchema.shape.name,
  phone: optionalText('Phone', SHORT_TEXT),
});

/** `REF-{timestamp}-{4 random uppercase characters}`. */
export const DEPOSIT_REFERENCE = /^REF-\d{10,16}-[A-Z]{4}$/;

export const depositSchema = z.object({
  amount: z.coerce
    .number({ error: messages.depositMin })
    .int()
    .min(MIN_DEPOSIT, messages.depositMin)
    .max(MAX_DEPOSIT, messages.depositMax),
  paymentMethod: z.enum(PAYMENT_METHODS, { error: messages.paymentMethodRequired }),
  reference: z.string({ error: 'Invalid reference' }).regex(DEPOSIT_REFERENCE, 'Invalid reference'),
});

/** The deposit form's fields: the reference is made when it is sent. */
export const depositFormSchema = depositSchema.omit({ reference: true });

export const withdrawalSchema = z.object({
  amount: z.coerce
    .number({ error: messages.withdrawalMin })
    .int()
    .min(MIN_WITHDRAWAL, messages.withdrawalMin)
    .max(MAX_WITHDRAWAL, messages.withdrawalMax),
  bankAccountId: z.coerce.number({ error: messages.bankAccountRequired }).int().min(1, messages.bankAccountRequired),
});

/**
 * Odds and potential win are optional: the server takes the match's current price and refuses values that
 * disagree (the price the player saw has changed).
 */
export const betSchema = z.object({
  match_id: rowId('Invalid match'),
  team_id: rowId('Please select a team'),
  amount: z.coerce.number({ error: messages.betMin }).int(messages.betMin).min(MIN_BET, messages.betMin),
  // Any valid number is passed on (one that is not the server's is a 409 'Odds have changed'); what could
  // not be one (not finite, out of range, a fractional win) is a 400.
  odds: z.coerce
    .number({ error: 'Invalid odds' })
    .positive('Invalid odds')
    .max(ODDS_RANGE.max, 'Invalid odds')
    .optional(),
  potential_win: z.coerce
    .number({ error: 'Invalid potential win' })
    .int('Invalid potential win')
    .min(0, 'Invalid potential win')
    .max(Number.MAX_SAFE_INTEGER, 'Invalid potential win')
    .optional(),
});

/** The bet slip's fields as typed: the team picked (null until then) and the amount's digits. */
export const betSlipSchema = z.object({ team_id: betSchema.shape.team_id, amount: betSchema.shape.amount });

export const bankAccountSchema = z.object({
  account_holder: text('Account holder', messages.accountHolderMin)
    .min(ACCOUNT_HOLDER_MIN, messages.accountHolderMin)
    .max(LONG_TEXT, maxText('Account holder', LONG_TEXT)),
  account_number: text('Account number', messages.accountNumberInvalid)
    .min(ACCOUNT_NUMBER_MIN, messages.accountNumberInvalid)
    .max(SHORT_TEXT, messages.accountNumberInvalid),
  ifsc_code: text('IFSC code', messages.ifscLength).toUpperCase().length(IFSC_LENGTH, messages.ifscLength),
  bank_name: text('Bank name', messages.bankNameMin)
    .min(BANK_NAME_MIN, messages.bankNameMin)
    .max(LONG_TEXT, maxText('Bank name', LONG_TEXT)),
});

/** The SPA form adds the confirmation field, which is never sent. */
export const bankAccountFormSchema = bankAccountSchema
  .extend({
    confirm_account_number: text('Account number', messages.accountNumberInvalid).min(
      ACCOUNT_NUMBER_MIN,
      messages.accountNumberInvalid,
    ),
  })
  .refine((form) => form.account_number === form.confirm_account_number, {
    message: messages.accountNumbersMismatch,
    path: ['confirm_account_number'],
  });

/** Match dates are bounded: far-off years are typos (and year 0 is not a date Postgres accepts). */
export const MATCH_YEARS = [2000, 2100] as const;
export const MATCH_DATE_RANGE = `Match date must be between the years ${MATCH_YEARS[0]} and ${MATCH_YEARS[1]}`;
const withinMatchYears = (value: string) => {
  const year = new Date(value).getUTCFullYear();
  return year >= MATCH_YEARS[0] && year <= MATCH_YEARS[1];
};

export const createMatchSchema = z
  .object({
    team1_id: rowId(messages.team1Required),
    team2_id: rowId(messages.team2Required),
    start_time: z.iso
      .datetime({ offset: true, error: messages.matchDateRequired })
      .refine(withinMatchYears, MATCH_DATE_RANGE),
    match_type: z.enum(MATCH_TYPES).default('t20'),
    venue: optionalText('Venue', LONG_TEXT),
    external_match_id: optionalText('External match id', LONG_TEXT),
  })
  .refine((match) => match.team1_id !== match.team2_id, { message: messages.sameTeams, path: ['team2_id'] });

/** A live score: runs/wickets ('145/3'); empty (for a side that has not batted) keeps the stored score. */
const score = (field: string) =>
  optionalText(field, SHORT_TEXT).refine(
    (value) => value === null || SCORE_PATTERN.test(value),
    priceMessages.scoreFormat,
  );

/**
 * A live update: every field left out keeps its stored value. The over in particular never defaults to 0:
 * a reset over would reopen a market the close rule had closed, for whoever sees the real score first. The
 * over's upper bound is the match type's innings (20, or 50 for an odi), which the database checks; here
 * only what no innings reaches.
 */
export const updateLiveSchema = z.object({
  team1_score: score('Team 1 score'),
  team2_score: score('Team 2 score'),
  current_innings: leftOutWhenNull(
    z.coerce.number().int().min(1, 'Innings must be 1 or 2').max(2, 'Innings must be 1 or 2'),
  ),
  current_over: leftOutWhenNull(
    z.coerce
      .number()
      .min(0, 'Over must be at least 0')
      .max(MAX_OVER, `Over must be at most ${MAX_OVER}`)
      .meta({
        description:
          'overs.balls with balls 0-5 (12.5 is followed by 13.0), at most the innings (20 overs, 50 for an odi): ' +
          'the database refuses any other with a 400',
      }),
  ),
  /** who batted first: when left out and not known yet, the only team with a score during the first innings */
  batting_first_team_id: leftOutWhenNull(rowId(priceMessages.battingFirst)),
});

/** A price of a match side: decimal odds, 1.01–100.00, at most two decimals. */
export const oddsSchema = z
  .number({ error: priceMessages.oddsRange })
  .min(ODDS_RANGE.min, priceMessages.oddsRange)
  .max(ODDS_RANGE.max, priceMessages.oddsRange)
  .refine(hasTwoDecimals, priceMessages.oddsDecimals);

/** PATCH /api/admin/matches/{id}/odds: the price of either side or both (decimal odds, two decimals). */
export const matchOddsSchema = z
  .object({ team1_odds: leftOutWhenNull(oddsSchema), team2_odds: leftOutWhenNull(oddsSchema) })
  .refine((odds) => odds.team1_odds !== undefined || odds.team2_odds !== undefined, priceMessages.oddsMissing);

export const declareWinnerSchema = z.object({
  winning_team_id: rowId(messages.winnerRequired),
  result: text('Result').max(LONG_TEXT, maxText('Result', LONG_TEXT)).optional(),
});

/** The admin wallet form: a debit is sent as a negative amount. */
export const adjustmentFormSchema = z.object({
  operation: z.enum(['credit', 'debit']),
  amount: z.coerce
    .number({ error: messages.adjustmentMin })
    .min(MIN_ADJUSTMENT, messages.adjustmentMin)
    .max(MAX_ADJUSTMENT, messages.adjustmentMax),
  notes: text('Notes', messages.notesRequired).min(1, messages.notesRequired).max(MAX_NOTES, messages.notesMax),
});

/** What the API accepts: a signed amount of 1 to 100000 either way. */
export const adjustmentSchema = z.object({
  amount: z.coerce
    .number({ error: messages.adjustmentMin })
    .int()
    .min(-MAX_ADJUSTMENT, messages.adjustmentMax)
    .max(MAX_ADJUSTMENT, messages.adjustmentMax)
    .refine((amount) => Math.abs(amount) >= MIN_ADJUSTMENT, messages.adjustmentMin)
    .meta({ not: { const: 0 }, description: 'A credit (> 0) or a debit (< 0), never 0' }),
  notes: text('Notes', messages.notesRequired).min(1, messages.notesRequired).max(MAX_NOTES, messages.notesMax),
});

export const userStatusSchema = z.object({ status: z.enum(USER_STATUSES, { error: 'Invalid status' }) });

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;
export type ProfileInput = z.infer<typeof profileSchema>;
export type ProfileFormValues = z.input<typeof profileFormSchema>;
export type DepositInput = z.infer<typeof depositSchema>;
export type WithdrawalInput = z.infer<typeof withdrawalSchema>;
export type BetInput = z.infer<typeof betSchema>;
export type BankAccountInput = z.infer<typeof bankAccountSchema>;
export type CreateMatchInput = z.infer<typeof createMatchSchema>;
export type MatchOddsInput = z.infer<typeof matchOddsSchema>;
