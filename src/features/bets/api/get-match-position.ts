import { queryOptions, useQuery } from '@tanstack/react-query';
import { answer, client } from '@/lib/api-client.ts';
import { betsQueryKey } from './get-bets.ts';

/** Under the bets' key: placing a bet refreshes it with them. */
export const matchPositionKey = (matchId: number) => [...betsQueryKey, 'position', matchId] as const;

/** GET /api/matches/{id}/position: the team the signed-in player backs on a match (null before a bet). */
export function getMatchPositionQueryOptions(matchId: number) {
  return queryOptions({
    queryKey: matchPositionKey(matchId),
    queryFn: () => answer(client.GET('/api/matches/{id}/position', { params: { path: { id: matchId } } })),
  });
}

/** `enabled: false` while nobody is signed in (the bet slip on a public page). */
export function useMatchPosition(matchId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getMatchPositionQueryOptions(matchId), enabled });
}
