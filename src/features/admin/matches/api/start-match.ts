import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

/** PATCH /api/admin/matches/{id}/start (empty body): upcoming → live. */
export function startMatch(id: number): Promise<Match> {
  return answer(client.PATCH('/api/admin/matches/{id}/start', { params: { path: { id } } }));
}

export function useStartMatch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: startMatch, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
