import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';

export const userQueryKey = ['user'] as const;

/** GET /api/user: the signed-in user, or null on 401 (spec §4 session). */
export function getUser(): Promise<User | null> {
  return api.getOrNull<User>('/api/user');
}

export function getUserQueryOptions() {
  return queryOptions({ queryKey: userQueryKey, queryFn: getUser });
}

export function useUser() {
  return useQuery(getUserQueryOptions());
}
