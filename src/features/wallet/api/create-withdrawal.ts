import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transaction } from '../../../domain/entities.ts';
import type { WithdrawalInput } from '../../../domain/schemas.ts';
import { api } from '../../../lib/api-client.ts';
import { userQueryKey } from '../../auth/api/get-user.ts';
import { transactionsQueryKey } from './get-transactions.ts';

/** POST /api/wallet/withdraw: amount and bankAccountId; creates a pending withdrawal. */
export function createWithdrawal(input: WithdrawalInput): Promise<Transaction> {
  return api.post<Transaction>('/api/wallet/withdraw', input);
}

/** Refreshes the ledger and the user after a withdrawal (spec §4). */
export function useCreateWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWithdrawal,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: transactionsQueryKey }),
        queryClient.invalidateQueries({ queryKey: userQueryKey }),
      ]),
  });
}
