import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BankAccount } from '@/domain/entities.ts';
import type { BankAccountInput } from '@/domain/schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { bankAccountsQueryKey } from './get-bank-accounts.ts';

/** POST /api/bank-accounts: the four fields plus user_id (the server takes the user from the session). */
export function createBankAccount(input: BankAccountInput & { user_id: number }): Promise<BankAccount> {
  return answer(client.POST('/api/bank-accounts', { body: input }));
}

export function useCreateBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBankAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bankAccountsQueryKey }),
  });
}
