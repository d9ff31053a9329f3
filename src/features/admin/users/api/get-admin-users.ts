import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserStatus } from '@/domain/limits.ts';
import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { answer, client } from '@/lib/api-client.ts';
import { pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

export interface UserListFilter {
  search: string;
  status?: UserStatus;
  /** only the players a result correction left below zero */
  belowZero?: boolean;
}

/**
 * GET /api/admin/users?q=&status=&below_zero=: the users list, searched and filtered by the server, newest
 * first.
 */
export function getAdminUsersQueryOptions({ search, status, belowZero }: UserListFilter) {
  return pagedQueryOptions(
    [...adminKeys.userList, { search, status, belowZero }],
    (query) => client.GET('/api/admin/users', { params: { query } }),
    { q: search || undefined, status: status || undefined, below_zero: belowZero ? ('true' as const) : undefined },
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useAdminUsers(filter: UserListFilter) {
  return usePagedList(getAdminUsersQueryOptions(filter));
}

/** GET /api/admin/users/counts: the counts of the tabs. */
export function useAdminUserCounts() {
  return useQuery(
    queryOptions({ queryKey: adminKeys.userCounts, queryFn: () => answer(client.GET('/api/admin/users/counts')) }),
  );
}
