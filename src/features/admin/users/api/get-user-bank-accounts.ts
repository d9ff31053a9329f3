import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { client } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/users/{id}/bank-accounts, in the order added, paged. */
export function getUserBankAccountsQueryOptions(id: number) {
  return pagedQueryOptions(
    adminKeys.userBankAccounts(id),
    (query) => client.GET('/api/admin/users/{id}/bank-accounts', { params: { path: { id }, query } }),
    {},
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useUserBankAccounts(id: number) {
  return usePagedList(getUserBankAccountsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
