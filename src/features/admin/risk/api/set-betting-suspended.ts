import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

/** PATCH /api/admin/matches/{id}/suspend or /resume: betting on the match stops or starts again. */
export function setBettingSuspended({ id, suspended }: { id: number; suspended: boolean }): Promise<Match> {
  const options = { params: { path: { id } } };
  return answer(
    suspended
      ? client.PATCH('/api/admin/matches/{id}/suspend', options)
      : client.PATCH('/api/admin/matches/{id}/resume', options),
  );
}

export function useSetBettingSuspended() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBettingSuspended,
    onSuccess: (match) => announceMatchChange(queryClient, match),
  });
}
