import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { api } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

/** PATCH /api/admin/matches/{id}/abandon (beyond the spec): bets cancelled, stakes refunded. */
export function abandonMatch(id: number): Promise<Match> {
  return api.patch<Match>(`/api/admin/matches/${id}/abandon`);
}

export function useAbandonMatch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: abandonMatch, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
