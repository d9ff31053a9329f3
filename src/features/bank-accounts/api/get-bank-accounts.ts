import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BankAccount } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';

export const bankAccountsQueryKey = ['bank-accounts'] as const;

/** GET /api/bank-accounts: the signed-in user's own accounts. */
export function getBankAccounts(): Promise<BankAccount[]> {
  return answer(client.GET('/api/bank-accounts'));
}

export function getBankAccountsQueryOptions() {
  return queryOptions({ queryKey: bankAccountsQueryKey, queryFn: getBankAccounts });
}

export function useBankAccounts() {
  return useQuery(getBankAccountsQueryOptions());
}
