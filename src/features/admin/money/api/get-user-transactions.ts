import type { Transaction } from '@/domain/entities.ts';
import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/users/{id}/transactions: the user's ledger, newest first, paged (the first page counts it). */
export function getUserTransactionsQueryOptions(id: number) {
  return pagedQueryOptions<Transaction, readonly unknown[]>(
    adminKeys.userTransactions(id),
    `/api/admin/users/${id}/transactions`,
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useUserTransactions(id: number) {
  return usePagedList(getUserTransactionsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
