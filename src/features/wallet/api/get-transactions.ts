import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Transaction } from '../../../domain/entities.ts';
import { QUALIFYING_DEPOSIT } from '../../../domain/limits.ts';
import { api } from '../../../lib/api-client.ts';

export const transactionsQueryKey = ['transactions'] as const;

/** GET /api/wallet/transactions: the signed-in user's ledger, newest first. */
export function getTransactions(): Promise<Transaction[]> {
  return api.get<Transaction[]>('/api/wallet/transactions');
}

export function getTransactionsQueryOptions() {
  return queryOptions({ queryKey: transactionsQueryKey, queryFn: getTransactions });
}

export function useTransactions(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getTransactionsQueryOptions(), ...options });
}

/** Spec §5: a withdrawal needs at least one completed deposit of ₹1,000 or more. */
export function hasQualifyingDeposit(transactions: readonly Transaction[]): boolean {
  return transactions.some((t) => t.type === 'deposit' && t.status === 'completed' && t.amount >= QUALIFYING_DEPOSIT);
}
