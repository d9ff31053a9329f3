import { queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { answer, client, type QueryParameters } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

export interface TransactionListFilter extends Pick<QueryParameters<'adminListTransactions'>, 'type' | 'status'> {
  search: string;
}

/** GET /api/admin/transactions?q=&type=&status=: every user's transactions, searched and filtered by the server. */
export function getAdminTransactionsQueryOptions({ search, type, status }: TransactionListFilter) {
  return pagedQueryOptions(
    [...adminKeys.transactions, 'list', { search, type, status }],
    (query) => client.GET('/api/admin/transactions', { params: { query } }),
    { q: search || undefined, type: type || undefined, status: status || undefined },
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
      queryFn: () => answer(client.GET('/api/admin/transactions/counts')),
    }),
  );
}
