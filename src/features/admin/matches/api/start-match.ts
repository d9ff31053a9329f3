import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { api } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

/** PATCH /api/admin/matches/{id}/start (empty body): upcoming → live. */
export function startMatch(id: number): Promise<Match> {
  return api.patch<Match>(`/api/admin/matches/${id}/start`);
}

export function useStartMatch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: startMatch, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
