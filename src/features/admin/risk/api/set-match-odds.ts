import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import type { MatchOddsInput } from '@/domain/schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

/** PATCH /api/admin/matches/{id}/odds: the price of either side of an upcoming or live match, or both. */
export function setMatchOdds({ id, ...odds }: MatchOddsInput & { id: number }): Promise<Match> {
  return answer(client.PATCH('/api/admin/matches/{id}/odds', { params: { path: { id } }, body: odds }));
}

export function useSetMatchOdds() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setMatchOdds, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
