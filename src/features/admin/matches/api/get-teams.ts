import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Team } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/teams: the teams the create-match selects offer. */
export function getTeams(): Promise<Team[]> {
  return answer(client.GET('/api/admin/teams'));
}

export function getTeamsQueryOptions() {
  return queryOptions({ queryKey: adminKeys.teams, queryFn: getTeams });
}

export function useTeams() {
  return useQuery(getTeamsQueryOptions());
}
