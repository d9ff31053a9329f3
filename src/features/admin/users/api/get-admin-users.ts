import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserCounts } from '@/domain/admin-entities.ts';
import type { User } from '@/domain/entities.ts';
import type { UserStatus } from '@/domain/limits.ts';
import { DEFAULT_PAGE_SIZE } from '@/domain/paging.ts';
import { api } from '@/lib/api-client.ts';
import { listUrl, pagedQueryOptions, usePagedList } from '@/lib/paged-query.ts';
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
  return pagedQueryOptions<User, readonly unknown[]>(
    [...adminKeys.userList, { search, status, belowZero }],
    listUrl('/api/admin/users', { q: search, status, below_zero: belowZero ? 'true' : undefined }),
    { limit: DEFAULT_PAGE_SIZE },
  );
}

export function useAdminUsers(filter: UserListFilter) {
  return usePagedList(getAdminUsersQueryOptions(filter));
}

/** GET /api/admin/users/counts: the counts of the tabs. */
export function useAdminUserCounts() {
  return useQuery(
    queryOptions({ queryKey: adminKeys.userCounts, queryFn: () => api.get<UserCounts>('/api/admin/users/counts') }),
  );
}
