/**
 * What the withdraw form checks before sending, the same rules the server enforces: the player is signed
 * in, the available balance (wallet balance minus pending withdrawals) covers the amount, and they have
 * made one completed deposit of ₹1,000 or more.
 */
import type { Transaction, User } from './entities.ts';
import { QUALIFYING_DEPOSIT } from './limits.ts';

export function hasQualifyingDeposit(transactions: readonly Transaction[]): boolean {
  return transactions.some((t) => t.type === 'deposit' && t.status === 'completed' && t.amount >= QUALIFYING_DEPOSIT);
}

export type WithdrawalRefusal = 'signed-out' | 'insufficient-balance' | 'no-qualifying-deposit';

/** Why a withdrawal of `amount` would be refused, in the order the player is told; null when it may go. */
export function withdrawalRefusal(
  user: User | null | undefined,
  amount: number,
  transactions: readonly Transaction[],
): WithdrawalRefusal | null {
  if (!user) return 'signed-out';
  if (user.available_balance < amount) return 'insufficient-balance';
  if (!hasQualifyingDeposit(transactions)) return 'no-qualifying-deposit';
  return null;
}
