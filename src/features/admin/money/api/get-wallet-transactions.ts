import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { client } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/wallet/transactions?userId= (the admin wallet page adds the user's id), paged. */
export function getWalletTransactionsQueryOptions(id: number) {
  return pagedQueryOptions(
    adminKeys.userWalletTransactions(id),
    (query) => client.GET('/api/wallet/transactions', { params: { query } }),
    { userId: id },
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useWalletTransactions(id: number) {
  return usePagedList(getWalletTransactionsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
