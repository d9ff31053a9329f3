import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { api } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

export interface UpdateLiveInput {
  team1_score: string | null;
  team2_score: string | null;
  current_innings: number;
  current_over: number;
  /** null: unchanged (the server infers it from a first innings with one score) */
  batting_first_team_id: number | null;
}

/**
 * PATCH /api/admin/matches/{id}/update-live: scores (runs/wickets), innings (1–2), over (within the match
 * type's innings) and the team batting first of a live match.
 */
export function updateLive({ id, ...body }: UpdateLiveInput & { id: number }): Promise<Match> {
  return api.patch<Match>(`/api/admin/matches/${id}/update-live`, body);
}

export function useUpdateLive() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateLive, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
