import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import type { MatchType } from '@/domain/limits.ts';
import { api } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

export interface CreateMatchBody {
  match_type: MatchType;
  status: 'upcoming';
  venue: string;
  team1_id: number;
  team2_id: number;
  /** ISO string */
  start_time: string;
}

/** POST /api/admin/matches: the answer carries the new id. */
export function createMatch(body: CreateMatchBody): Promise<Match> {
  return api.post<Match>('/api/admin/matches', body);
}

export function useCreateMatch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createMatch, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
