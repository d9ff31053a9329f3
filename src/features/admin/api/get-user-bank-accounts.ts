import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BankAccount } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { adminKeys } from './keys.ts';

/** GET /api/admin/users/{id}/bank-accounts. */
export function getUserBankAccounts(userId: number): Promise<BankAccount[]> {
  return api.get<BankAccount[]>(`/api/admin/users/${userId}/bank-accounts`);
}

export function getUserBankAccountsQueryOptions(userId: number) {
  return queryOptions({ queryKey: adminKeys.userBankAccounts(userId), queryFn: () => getUserBankAccounts(userId) });
}

export function useUserBankAccounts(userId: number) {
  return useQuery({ ...getUserBankAccountsQueryOptions(userId), enabled: Number.isInteger(userId) && userId > 0 });
}
