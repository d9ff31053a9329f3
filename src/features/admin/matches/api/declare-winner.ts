import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { api } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

export interface DeclareWinnerInput {
  id: number;
  winning_team_id: number;
  /** '{team} won the match' */
  result: string;
}

/** PATCH /api/admin/matches/{id}/declare-winner: completes the match and settles its bets. */
export function declareWinner({ id, ...body }: DeclareWinnerInput): Promise<Match> {
  return api.patch<Match>(`/api/admin/matches/${id}/declare-winner`, body);
}

export function useDeclareWinner() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: declareWinner, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
