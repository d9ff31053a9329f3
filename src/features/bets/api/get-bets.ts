import { listenToCacheChanges, refetchOnSettlement } from '@/lib/cache-sync.ts';
import { client } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';

export const betsQueryKey = ['bets'] as const;

listenToCacheChanges(refetchOnSettlement(betsQueryKey));

/** Home shows the 3 latest bets; My Bets pages through all of them. */
export const RECENT_BETS = 3;
export const BETS_PAGE_SIZE = 20;

/** GET /api/bets: the signed-in user's bets, newest first, each with its match and team, paged by the server. */
export function getBetsQueryOptions(pageSize = BETS_PAGE_SIZE) {
  return pagedQueryOptions(
    [...betsQueryKey, { pageSize }],
    (query) => client.GET('/api/bets', { params: { query } }),
    {},
    { limit: pageSize },
  );
}

export function useBets(pageSize = BETS_PAGE_SIZE) {
  return usePagedList(getBetsQueryOptions(pageSize));
}
