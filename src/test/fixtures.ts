import type { BankAccount, Match, Transaction, User } from '../domain/entities.ts';
import type { AccountLimits } from '../domain/protection-schemas.ts';

/** A player; available_balance follows wallet_balance − pending_withdrawals unless given. */
export function aUser(overrides: Partial<User> = {}): User {
  const wallet = overrides.wallet_balance ?? 5000;
  const pending = overrides.pending_withdrawals ?? 0;
  return {
    id: 7,
    username: 'asha',
    name: 'Asha Rao',
    email: 'asha@example.com',
    phone: null,
    wallet_balance: wallet,
    available_balance: wallet - pending,
    pending_withdrawals: pending,
    referral_code: 'ASHA7',
    referred_by: null,
    role: 'user',
    status: 'active',
    created_at: '2026-11-01T10:00:00Z',
    ...overrides,
  };
}

export function aMatch(overrides: Partial<Match> = {}): Match {
  return {
    id: 11,
    team1_id: 1,
    team2_id: 2,
    start_time: '2026-11-21T14:00:00Z',
    status: 'live',
    match_type: 't20',
    venue: 'Wankhede Stadium',
    team1_score: '145/3',
    team2_score: null,
    current_innings: 1,
    current_over: 15.2,
    match_result: null,
    winning_team_id: null,
    external_match_id: null,
    version: 1,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    team1: { id: 1, name: 'Mumbai Indians', short_name: 'MI', logo_url: null },
    team2: { id: 2, name: 'Chennai Super Kings', short_name: 'CSK', logo_url: null },
    additionalDetails: { status: null },
    betting: 'open',
    betting_pauses_at: null,
    settlement: null,
    team1_odds: 3,
    team2_odds: 3,
    batting_first_team_id: 1,
    correction_reason: null,
    ...overrides,
  };
}

export function aTransaction(id: number, overrides: Partial<Transaction> = {}): Transaction {
  return {
    id,
    user_id: 7,
    amount: 1000,
    type: 'deposit',
    status: 'completed',
    reference_id: `REF-${id}`,
    notes: null,
    payment_method: 'upi',
    bank_account_id: null,
    gateway_txn_id: null,
    requested_by: null,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    ...overrides,
  };
}

export function aBankAccount(overrides: Partial<BankAccount> = {}): BankAccount {
  return {
    id: 3,
    user_id: 7,
    account_holder: 'Asha Rao',
    account_number: '123456789012',
    ifsc_code: 'HDFC0001234',
    bank_name: 'HDFC Bank',
    is_active: true,
    created_at: '2026-11-01T10:00:00Z',
    ...overrides,
  };
}

/** A player's protection: no limits, no exclusion and the deposit-limit prompt answered unless given. */
export function someLimits(overrides: Partial<AccountLimits> = {}): AccountLimits {
  return {
    deposit_limits: { daily: null, weekly: null, monthly: null },
    deposit_remaining: { daily: null, weekly: null, monthly: null },
    pending_changes: [],
    timeout_until: null,
    self_excluded_until: null,
    limit_prompt_due: false,
    ...overrides,
  };
}
