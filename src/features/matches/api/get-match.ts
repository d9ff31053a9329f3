import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Match } from '../../../domain/entities.ts';
import { api, ApiError } from '../../../lib/api-client.ts';
import { keepNewerMatches } from '../../../lib/cache-sync.ts';
import { matchKeys } from './keys.ts';

/** The live match view polls its match every 30 s. */
export const MATCH_POLL_MS = 30_000;

/** GET /api/matches/{id}: one match, or null when it does not exist. */
export async function getMatch(id: number): Promise<Match | null> {
  try {
    return await api.get<Match>(`/api/matches/${id}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function getMatchQueryOptions(id: number) {
  return queryOptions({
    queryKey: matchKeys.detail(id),
    queryFn: () => getMatch(id),
    refetchInterval: MATCH_POLL_MS,
    structuralSharing: keepNewerMatches,
  });
}

export function useMatch(id: number) {
  return useQuery({ ...getMatchQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}
