import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Transaction } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { adminKeys } from './keys.ts';

/** GET /api/admin/transactions: every transaction, newest first (the screen filters by tab and search). */
export function getAdminTransactions(): Promise<Transaction[]> {
  return api.get<Transaction[]>('/api/admin/transactions');
}

export function getAdminTransactionsQueryOptions() {
  return queryOptions({ queryKey: adminKeys.transactions, queryFn: getAdminTransactions });
}

export function useAdminTransactions() {
  return useQuery(getAdminTransactionsQueryOptions());
}
