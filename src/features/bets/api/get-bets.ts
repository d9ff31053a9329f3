import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bet } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';

export const betsQueryKey = ['bets'] as const;

/** GET /api/bets: the signed-in user's bets, each with its match and team. */
export function getBets(): Promise<Bet[]> {
  return api.get<Bet[]>('/api/bets');
}

export function getBetsQueryOptions() {
  return queryOptions({ queryKey: betsQueryKey, queryFn: getBets });
}

export function useBets(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getBetsQueryOptions(), ...options });
}
