import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transaction } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { invalidateUserMoney } from './invalidate.ts';

/** PATCH /api/admin/transactions/{id}/approve (empty body): the pending row is processed — a deposit credits, a withdrawal debits. */
export function approveTransaction(id: number): Promise<Transaction> {
  return api.patch<Transaction>(`/api/admin/transactions/${id}/approve`);
}

export function useApproveTransaction() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: approveTransaction, onSuccess: () => invalidateUserMoney(queryClient) });
}
