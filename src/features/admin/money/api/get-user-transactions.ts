import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { client } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/users/{id}/transactions: the user's ledger, newest first, paged (the first page counts it). */
export function getUserTransactionsQueryOptions(id: number) {
  return pagedQueryOptions(
    adminKeys.userTransactions(id),
    (query) => client.GET('/api/admin/users/{id}/transactions', { params: { path: { id }, query } }),
    {},
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useUserTransactions(id: number) {
  return usePagedList(getUserTransactionsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
