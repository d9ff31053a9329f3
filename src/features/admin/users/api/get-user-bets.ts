import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { client } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/users/{id}/bets: the user's bets, newest first, paged (the first page counts them). */
export function getUserBetsQueryOptions(id: number) {
  return pagedQueryOptions(
    adminKeys.userBets(id),
    (query) => client.GET('/api/admin/users/{id}/bets', { params: { path: { id }, query } }),
    {},
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useUserBets(id: number) {
  return usePagedList(getUserBetsQueryOptions(id), { enabled: Number.isInteger(id) && id > 0 });
}
