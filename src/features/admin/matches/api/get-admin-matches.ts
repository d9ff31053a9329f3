import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/matches: every match, newest start first (a 401 throws). */
export function getAdminMatches(): Promise<Match[]> {
  return answer(client.GET('/api/admin/matches'));
}

export function getAdminMatchesQueryOptions() {
  return queryOptions({ queryKey: adminKeys.matchList, queryFn: getAdminMatches });
}

export function useAdminMatches() {
  return useQuery(getAdminMatchesQueryOptions());
}
