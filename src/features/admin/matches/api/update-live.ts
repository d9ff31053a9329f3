import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, client, type RequestBody } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

export type UpdateLiveInput = RequestBody<'adminUpdateLive'>;

/**
 * PATCH /api/admin/matches/{id}/update-live: scores (runs/wickets), innings (1–2), over (within the match
 * type's innings) and the team batting first of a live match.
 */
export function updateLive({ id, ...body }: UpdateLiveInput & { id: number }): Promise<Match> {
  return answer(client.PATCH('/api/admin/matches/{id}/update-live', { params: { path: { id } }, body }));
}

export function useUpdateLive() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateLive, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
