import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

/** PATCH /api/admin/matches/{id}/abandon: bets cancelled, stakes refunded. */
export function abandonMatch(id: number): Promise<Match> {
  return answer(client.PATCH('/api/admin/matches/{id}/abandon', { params: { path: { id } } }));
}

export function useAbandonMatch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: abandonMatch, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
