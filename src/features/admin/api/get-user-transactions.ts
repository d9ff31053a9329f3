import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Transaction } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { adminKeys } from './keys.ts';

/** GET /api/admin/users/{id}/transactions: the user's ledger, newest first. */
export function getUserTransactions(userId: number): Promise<Transaction[]> {
  return api.get<Transaction[]>(`/api/admin/users/${userId}/transactions`);
}

export function getUserTransactionsQueryOptions(userId: number) {
  return queryOptions({ queryKey: adminKeys.userTransactions(userId), queryFn: () => getUserTransactions(userId) });
}

export function useUserTransactions(userId: number) {
  return useQuery({ ...getUserTransactionsQueryOptions(userId), enabled: Number.isInteger(userId) && userId > 0 });
}
