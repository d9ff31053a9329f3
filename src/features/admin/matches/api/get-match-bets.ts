import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { client } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/bets/match/{id}: the bets placed on a match, newest first, paged (the first page counts them and their stake). */
export function getMatchBetsQueryOptions(id: number) {
  return pagedQueryOptions(
    adminKeys.matchBets(id),
    (query) => client.GET('/api/admin/bets/match/{id}', { params: { path: { id }, query } }),
    {},
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useMatchBets(id: number) {
  return usePagedList(getMatchBetsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
