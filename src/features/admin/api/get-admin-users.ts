import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { adminKeys } from './keys.ts';

/** GET /api/admin/users (a 401 throws). */
export function getAdminUsers(): Promise<User[]> {
  return api.get<User[]>('/api/admin/users');
}

export function getAdminUsersQueryOptions() {
  return queryOptions({ queryKey: adminKeys.userList, queryFn: getAdminUsers });
}

export function useAdminUsers() {
  return useQuery(getAdminUsersQueryOptions());
}
