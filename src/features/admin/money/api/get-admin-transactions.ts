import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransactionCounts } from '@/domain/admin-entities.ts';
import type { Transaction } from '@/domain/entities.ts';
import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { api } from '@/lib/api-client.ts';
import { listUrl, pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

export interface TransactionListFilter {
  search: string;
  type?: string;
  status?: string;
}

/** GET /api/admin/transactions?q=&type=&status=: every user's transactions, searched and filtered by the server. */
export function getAdminTransactionsQueryOptions({ search, type, status }: TransactionListFilter) {
  return pagedQueryOptions<Transaction, readonly unknown[]>(
    [...adminKeys.transactions, 'list', { search, type, status }],
    listUrl('/api/admin/transactions', { q: search, type, status }),
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useAdminTransactions(filter: TransactionListFilter) {
  return usePagedList(getAdminTransactionsQueryOptions(filter));
}

/** GET /api/admin/transactions/counts: the pending tabs' counts. */
export function useAdminTransactionCounts() {
  return useQuery(
    queryOptions({
      queryKey: adminKeys.transactionCounts,
      queryFn: () => api.get<TransactionCounts>('/api/admin/transactions/counts'),
    }),
  );
}
