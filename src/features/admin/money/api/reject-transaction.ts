import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transaction } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { invalidateUserMoney } from '@/features/admin/shared/api/invalidate.ts';

/** PATCH /api/admin/transactions/{id}/reject (empty body): the pending row is marked failed and no funds move. */
export function rejectTransaction(id: number): Promise<Transaction> {
  return answer(client.PATCH('/api/admin/transactions/{id}/reject', { params: { path: { id } } }));
}

export function useRejectTransaction() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: rejectTransaction, onSuccess: () => invalidateUserMoney(queryClient) });
}
