/**
 * The JSON answers of the API (edge-functions/api), shared with the SPA: zod schemas (the API's OpenAPI
 * document is generated from them) and their TypeScript types. Field names are the product's (snake_case
 * entities; the dashboard statistics are camelCase). Ids and amounts are JSON
 * numbers; timestamps are ISO 8601 strings. Every non-2xx answer is `{ "message": string }`. The back
 * office's own answers (counts, statistics, audit log) are in admin-entities.ts.
 */
import { z } from 'zod';
import {
  BET_STATUSES,
  MATCH_STATUSES,
  MATCH_TYPES,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  USER_ROLES,
  USER_STATUSES,
} from './limits.ts';
import { BETTING_STATES } from './betting.ts';

export const timestamp = z.string().describe('ISO 8601 timestamp');

export const apiErrorEntity = z.object({ message: z.string() });

/** A money write's 504: its statements went out and whether they committed could not be learnt. */
export const outcomeUnknownEntity = z.object({ message: z.string(), outcome: z.literal('unknown') });

/**
 * A user without the password (never returned), plus what the user may spend. GET /api/user, POST /api/login,
 * POST /api/register, the admin user reads.
 */
export const userEntity = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  wallet_balance: z.number().int(),
  /** wallet_balance − pending_withdrawals: what bets and withdrawals may spend */
  available_balance: z.number().int(),
  /** the sum of the user's pending withdrawals (positive; 0 when none), held until an admin decides */
  pending_withdrawals: z.number().int(),
  referral_code: z.string(),
  referred_by: z.number().int().nullable(),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES),
  created_at: timestamp,
});

/** A team. GET /api/admin/teams; embedded in matches and bets. */
export const teamEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  short_name: z.string(),
  logo_url: z.string().nullable(),
});

/** The settlement of a completed match's bets: settling batch by batch, then settled. */
export const settlementEntity = z.object({
  state: z.enum(['settling', 'settled']),
  /** bets settled so far */
  settled: z.number().int(),
  /** bets to settle */
  total: z.number().int(),
});
export type Settlement = z.infer<typeof settlementEntity>;

/**
 * The result of a signed-in player's own bets on a match, pushed to them as its settlement reaches them
 * (`event: result` of the live stream, or their private Realtime topic on Supabase).
 */
export const betResultEntity = z.object({
  match_id: z.number().int(),
  /** 'MI vs CSK' */
  match: z.string(),
  outcome: z.enum(['won', 'lost', 'refunded']),
  /** paid (won), lost, or refunded */
  amount: z.number().int(),
  /** the team the player backed */
  team: z.string(),
  /** present when this is the new result of a corrected match */
  corrected: z.literal(true).optional(),
});
export type BetResult = z.infer<typeof betResultEntity>;

/** A match with its embedded teams. GET /api/matches, /api/matches/{id}, /api/admin/matches… */
export const matchEntity = z.object({
  id: z.number().int(),
  team1_id: z.number().int(),
  team2_id: z.number().int(),
  start_time: timestamp,
  status: z.enum(MATCH_STATUSES),
  match_type: z.enum(MATCH_TYPES),
  venue: z.string().nullable(),
  team1_score: z.string().nullable(),
  team2_score: z.string().nullable(),
  current_innings: z.number().int().nullable(),
  /** overs.balls, e.g. 12.3 */
  current_over: z.number().nullable(),
  /** '{team} won the match', or 'Match abandoned', once completed */
  match_result: z.string().nullable(),
  winning_team_id: z.number().int().nullable(),
  external_match_id: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  /** 1 when created, +1 with every change: of two states of a match, the higher version is the newer */
  version: z.number().int(),
  team1: teamEntity,
  team2: teamEntity,
  /** `status` is the match_result once completed, else null. */
  additionalDetails: z.object({ status: z.string().nullable() }),
  /** house risk: 'suspended' by an admin, or 'closed' (completed, or closed in play) */
  betting: z.enum(BETTING_STATES),
  /** when bets pause unless a live update comes first (a stale live score); null: never */
  betting_pauses_at: timestamp.nullable(),
  /** once completed: the settlement of its bets, batch by batch after the outcome is declared */
  settlement: settlementEntity.nullable(),
  /** the price of a bet on team 1 now (decimal odds: ₹1,000 at 1.85 pays ₹1,850); a bet keeps the price it was taken at */
  team1_odds: z.number(),
  /** the price of a bet on team 2 now */
  team2_odds: z.number(),
  /** the team that batted first (known from the first innings' score, or given by an admin); null until known */
  batting_first_team_id: z.number().int().nullable(),
  /** why the result was corrected (shown as `Result corrected: {reason}`); null: never corrected */
  correction_reason: z.string().nullable(),
});

/** GET /api/matches/{id}/position: the caller's side of a match (a player backs one team of a match) and stake. */
export const matchPositionEntity = z.object({
  /** the team the caller backs on this match, fixed by their first bet; null before it */
  team_id: z.number().int().nullable(),
  /** everything the caller has staked on this match */
  staked: z.number().int(),
});
export type MatchPosition = z.infer<typeof matchPositionEntity>;

/** A bet with its embedded match (and its teams) and team. GET /api/bets, admin bet lists, POST /api/bets. */
export const betEntity = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  match_id: z.number().int(),
  team_id: z.number().int(),
  amount: z.number().int(),
  /** the price of the team backed when the bet was taken, which it keeps */
  odds: z.number(),
  status: z.enum(BET_STATUSES),
  potential_win: z.number().int(),
  created_at: timestamp,
  settled_at: timestamp.nullable(),
  match: matchEntity,
  team: teamEntity,
});

/** A ledger row. GET /api/wallet/transactions, admin transaction lists. */
export const transactionEntity = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  /** signed: positive credits, negative debits (a withdrawal of ₹500 is -500) */
  amount: z.number().int(),
  type: z.enum(TRANSACTION_TYPES),
  status: z.enum(TRANSACTION_STATUSES),
  reference_id: z.string().nullable(),
  /** admin adjustment reason */
  notes: z.string().nullable(),
  /** 'upi' for deposits */
  payment_method: z.string().nullable(),
  /** destination of a withdrawal */
  bank_account_id: z.number().int().nullable(),
  gateway_txn_id: z.string().nullable(),
  /** the admin who made an admin adjustment (a large credit waits, pending, for another admin) */
  requested_by: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

/**
 * POST /api/wallet/deposit: the pending deposit plus `redirect_url`, the payment gateway's page with query
 * amount, username and reference filled in: the SPA sends the browser there.
 */
export const depositResponseEntity = transactionEntity.extend({ redirect_url: z.string() });

/** A bank account. GET/POST /api/bank-accounts, GET /api/admin/users/{id}/bank-accounts. */
export const bankAccountEntity = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  account_holder: z.string(),
  account_number: z.string(),
  ifsc_code: z.string(),
  bank_name: z.string(),
  is_active: z.boolean(),
  created_at: timestamp,
});

export type ApiError = z.infer<typeof apiErrorEntity>;
export type User = z.infer<typeof userEntity>;
export type Team = z.infer<typeof teamEntity>;
export type Match = z.infer<typeof matchEntity>;
export type Bet = z.infer<typeof betEntity>;
export type Transaction = z.infer<typeof transactionEntity>;
export type DepositResponse = z.infer<typeof depositResponseEntity>;
export type BankAccount = z.infer<typeof bankAccountEntity>;
