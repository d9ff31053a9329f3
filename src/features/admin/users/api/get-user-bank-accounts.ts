import type { BankAccount } from '@/domain/entities.ts';
import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/users/{id}/bank-accounts, in the order added, paged. */
export function getUserBankAccountsQueryOptions(id: number) {
  return pagedQueryOptions<BankAccount, readonly unknown[]>(
    adminKeys.userBankAccounts(id),
    `/api/admin/users/${id}/bank-accounts`,
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useUserBankAccounts(id: number) {
  return usePagedList(getUserBankAccountsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
