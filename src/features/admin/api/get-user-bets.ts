import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bet } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { adminKeys } from './keys.ts';

/** GET /api/admin/users/{id}/bets: the user's bets with match and team. */
export function getUserBets(userId: number): Promise<Bet[]> {
  return api.get<Bet[]>(`/api/admin/users/${userId}/bets`);
}

export function getUserBetsQueryOptions(userId: number) {
  return queryOptions({ queryKey: adminKeys.userBets(userId), queryFn: () => getUserBets(userId) });
}

export function useUserBets(userId: number) {
  return useQuery({ ...getUserBetsQueryOptions(userId), enabled: Number.isInteger(userId) && userId > 0 });
}
