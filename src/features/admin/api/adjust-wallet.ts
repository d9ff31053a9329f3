import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transaction } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { invalidateUserMoney } from './invalidate.ts';

export interface AdjustWalletInput {
  userId: number;
  /** signed: positive credits, negative debits */
  amount: number;
  notes: string;
}

/** POST /api/admin/users/{id}/wallet: an admin_adjustment ledger row. */
export function adjustWallet({ userId, amount, notes }: AdjustWalletInput): Promise<Transaction> {
  return api.post<Transaction>(`/api/admin/users/${userId}/wallet`, { amount, notes });
}

export function useAdjustWallet() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: adjustWallet, onSuccess: () => invalidateUserMoney(queryClient) });
}
