import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, client, type RequestBody } from '@/lib/api-client.ts';
import { announceMatchChange } from '@/lib/cache-sync.ts';

export type CreateMatchBody = RequestBody<'adminCreateMatch'>;

/** POST /api/admin/matches: the answer carries the new id. */
export function createMatch(body: CreateMatchBody): Promise<Match> {
  return answer(client.POST('/api/admin/matches', { body }));
}

export function useCreateMatch() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createMatch, onSuccess: (match) => announceMatchChange(queryClient, match) });
}
