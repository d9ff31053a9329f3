import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, ApiError, client } from '@/lib/api-client.ts';
import { keepNewerMatches } from '@/lib/cache-sync.ts';
import { matchKeys } from './keys.ts';

/** GET /api/matches/{id}: one match, or null when it does not exist. */
export async function getMatch(id: number): Promise<Match | null> {
  try {
    return await answer(client.GET('/api/matches/{id}', { params: { path: { id } } }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function getMatchQueryOptions(id: number) {
  return queryOptions({
    queryKey: matchKeys.detail(id),
    queryFn: () => getMatch(id),
    structuralSharing: keepNewerMatches,
  });
}

export function useMatch(id: number) {
  return useQuery({ ...getMatchQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}
