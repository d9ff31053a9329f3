/**
 * The reality-check interval: GET and PUT /api/account/reality-check. A change also renews the play session
 * the header's clock and the checks run from (it carries the interval).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RealityCheck } from '@/domain/protection-schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { playSessionKey } from '@/lib/play-session.ts';

const realityCheckKey = ['reality-check'] as const;

export function getRealityCheckQueryOptions() {
  return queryOptions({
    queryKey: realityCheckKey,
    queryFn: () => answer(client.GET('/api/account/reality-check')),
  });
}

export const useRealityCheck = () => useQuery(getRealityCheckQueryOptions());

export function useSetRealityCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RealityCheck) => answer(client.PUT('/api/account/reality-check', { body: input })),
    onSuccess: (answer) => {
      queryClient.setQueryData(realityCheckKey, answer);
      void queryClient.invalidateQueries({ queryKey: playSessionKey });
    },
  });
}
