import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Transaction } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { walletTransactionsKey } from './keys.ts';

/** GET /api/wallet/transactions?userId= (spec §7.2: the admin wallet page adds the user's id). */
export function getWalletTransactions(userId: number): Promise<Transaction[]> {
  return api.get<Transaction[]>(`/api/wallet/transactions?userId=${userId}`);
}

export function getWalletTransactionsQueryOptions(userId: number) {
  return queryOptions({ queryKey: walletTransactionsKey(userId), queryFn: () => getWalletTransactions(userId) });
}

export function useWalletTransactions(userId: number) {
  return useQuery({ ...getWalletTransactionsQueryOptions(userId), enabled: Number.isInteger(userId) && userId > 0 });
}
