import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { api } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

/** PATCH /api/admin/matches/{id}/suspend or /resume (beyond the spec): betting on the match stops or starts again. */
export function setBettingSuspended({ id, suspended }: { id: number; suspended: boolean }): Promise<Match> {
  return api.patch<Match>(`/api/admin/matches/${id}/${suspended ? 'suspend' : 'resume'}`);
}

export function useSetBettingSuspended() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBettingSuspended,
    onSuccess: (match) => announceMatchChange(queryClient, match),
  });
}
