import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bet } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { adminKeys } from './keys.ts';

/** GET /api/admin/bets/match/{id}: every bet placed on a match. */
export function getMatchBets(matchId: number): Promise<Bet[]> {
  return api.get<Bet[]>(`/api/admin/bets/match/${matchId}`);
}

export function getMatchBetsQueryOptions(matchId: number) {
  return queryOptions({ queryKey: adminKeys.matchBets(matchId), queryFn: () => getMatchBets(matchId) });
}

export function useMatchBets(matchId: number) {
  return useQuery({ ...getMatchBetsQueryOptions(matchId), enabled: Number.isInteger(matchId) && matchId > 0 });
}
