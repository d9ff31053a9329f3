import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import type { MatchStatus } from '@/domain/limits.ts';
import { answer, client } from '@/lib/api-client.ts';
import { keepNewerMatches } from '@/lib/cache-sync.ts';
import { matchKeys } from './keys.ts';

/** GET /api/matches?status=…: the live or upcoming matches. */
export function getMatches(status: MatchStatus): Promise<Match[]> {
  return answer(client.GET('/api/matches', { params: { query: { status } } }));
}

export function getMatchesQueryOptions(status: MatchStatus) {
  return queryOptions({
    queryKey: matchKeys.list(status),
    queryFn: () => getMatches(status),
    structuralSharing: keepNewerMatches,
  });
}

export function useMatches(status: MatchStatus, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getMatchesQueryOptions(status), ...options });
}
