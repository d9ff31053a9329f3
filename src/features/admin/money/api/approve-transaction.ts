import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transaction } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { invalidateUserMoney } from '@/features/admin/shared/api/invalidate.ts';

export interface ApprovalResult {
  transaction: Transaction;
  /**
   * What the server said when this approval was the first of two (202: 'A second administrator must approve
   * deposits of ₹50,000 or more'); null when it completed the transaction.
   */
  waitingFor: string | null;
}

/**
 * PATCH /api/admin/transactions/{id}/approve (empty body): the pending row is processed — a deposit credits,
 * a withdrawal debits — or, from the second-approval threshold up, approved once and left for another admin.
 */
export async function approveTransaction(id: number): Promise<ApprovalResult> {
  const result = await answer(client.PATCH('/api/admin/transactions/{id}/approve', { params: { path: { id } } }));
  return 'message' in result
    ? { transaction: result.transaction, waitingFor: result.message }
    : { transaction: result, waitingFor: null };
}

export function useApproveTransaction() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: approveTransaction, onSuccess: () => invalidateUserMoney(queryClient) });
}
