import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, client, type RequestBody } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

export type DeclareWinnerInput = RequestBody<'adminDeclareWinner'> & { id: number };

/** PATCH /api/admin/matches/{id}/declare-winner: completes the match and settles its bets. */
export function declareWinner({ id, ...body }: DeclareWinnerInput): Promise<Match> {
  return answer(client.PATCH('/api/admin/matches/{id}/declare-winner', { params: { path: { id } }, body }));
}

export function useDeclareWinner() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: declareWinner, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
