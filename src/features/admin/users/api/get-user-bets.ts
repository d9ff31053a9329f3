import type { Bet } from '@/domain/entities.ts';
import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/users/{id}/bets: the user's bets, newest first, paged (the first page counts them). */
export function getUserBetsQueryOptions(id: number) {
  return pagedQueryOptions<Bet, readonly unknown[]>(adminKeys.userBets(id), `/api/admin/users/${id}/bets`, {
    limit: DEFAULT_PAGE_SIZE,
  });
}

export function useUserBets(id: number) {
  return usePagedList(getUserBetsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
