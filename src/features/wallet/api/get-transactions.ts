import { MAX_PAGE_SIZE } from '@/domain/paging.ts';
import { listenToCacheChanges, refetchOnSettlement } from '@/lib/cache-sync.ts';
import { client } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';

export const transactionsQueryKey = ['transactions'] as const;

/** The ledger changes with every settlement and every money movement. */
listenToCacheChanges({
  ...refetchOnSettlement(transactionsQueryKey),
  moneyMoved: (queryClient) => queryClient.invalidateQueries({ queryKey: transactionsQueryKey }),
});

/** 3 rows in the overview, 10 in the detailed view, Load More adds 10. */
export const OVERVIEW_SIZE = 3;
export const DETAILED_SIZE = 10;
export const LOAD_MORE_STEP = 10;

export type TransactionFilter = 'all' | 'deposits' | 'withdrawals';
const FILTER_TYPES = { all: undefined, deposits: 'deposit', withdrawals: 'withdrawal' } as const;

/** GET /api/wallet/transactions: the signed-in user's ledger, newest first, one filter, paged by the server. */
export function getTransactionsQueryOptions({
  filter = 'all',
  detailed = false,
}: { filter?: TransactionFilter; detailed?: boolean } = {}) {
  const first = detailed ? DETAILED_SIZE : OVERVIEW_SIZE;
  return pagedQueryOptions(
    [...transactionsQueryKey, { filter, first }],
    (query) => client.GET('/api/wallet/transactions', { params: { query } }),
    { type: FILTER_TYPES[filter] },
    { limit: first, nextLimit: LOAD_MORE_STEP },
  );
}

export function useTransactions(options: { filter?: TransactionFilter; detailed?: boolean } = {}) {
  return usePagedList(getTransactionsQueryOptions(options));
}

/**
 * The player's newest completed deposits, for the withdraw form's check (one of ₹1,000 or more).
 * One page of the most the API gives: a qualifying deposit older than that many newer ones is left to the
 * server's own check.
 */
export function useCompletedDeposits() {
  return usePagedList(
    pagedQueryOptions(
      [...transactionsQueryKey, 'completed-deposits'],
      (query) => client.GET('/api/wallet/transactions', { params: { query } }),
      { type: 'deposit' as const, status: 'completed' as const },
      { limit: MAX_PAGE_SIZE },
    ),
  );
}
