import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transaction } from '@/domain/entities.ts';
import type { WithdrawalInput } from '@/domain/schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { announceMoneyMoved } from '@/lib/cache-sync.ts';

/** POST /api/wallet/withdraw: amount and bankAccountId; creates a pending withdrawal. */
export function createWithdrawal(input: WithdrawalInput): Promise<Transaction> {
  return answer(client.POST('/api/wallet/withdraw', { body: input }));
}

/** Refreshes the ledger and the user after a withdrawal. */
export function useCreateWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWithdrawal,
    onSuccess: () => announceMoneyMoved(queryClient),
  });
}
