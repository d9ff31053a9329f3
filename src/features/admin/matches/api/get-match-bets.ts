import type { Bet } from '@/domain/entities.ts';
import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/bets/match/{id}: the bets placed on a match, newest first, paged (the first page counts them and their stake). */
export function getMatchBetsQueryOptions(id: number) {
  return pagedQueryOptions<Bet, readonly unknown[]>(adminKeys.matchBets(id), `/api/admin/bets/match/${id}`, {
    limit: DEFAULT_PAGE_SIZE,
  });
}

export function useMatchBets(id: number) {
  return usePagedList(getMatchBetsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
