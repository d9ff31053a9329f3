/**
 * Two-factor sign-in: GET /api/account/two-factor (its state), POST /api/account/two-factor (a new secret
 * to set up) and POST /api/account/two-factor/confirm (a code from it turns it on; the answer's recovery
 * codes are shown once). Both writes carry the owner's proof (the password, and a code of the current second
 * factor when one is on). Turning it on ends the user's other sessions and gives this one a new cookie.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorProof } from '@/domain/account-security-schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { sessionsKey } from './sessions.ts';

export const twoFactorKey = ['account', 'two-factor'] as const;

export function getTwoFactorQueryOptions() {
  return queryOptions({ queryKey: twoFactorKey, queryFn: () => answer(client.GET('/api/account/two-factor')) });
}

export const useTwoFactor = () => useQuery(getTwoFactorQueryOptions());

export const useStartTwoFactor = () =>
  useMutation({
    mutationFn: (proof: TwoFactorProof) => answer(client.POST('/api/account/two-factor', { body: proof })),
  });

export function useConfirmTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmation: TwoFactorProof & { code: string }) =>
      answer(client.POST('/api/account/two-factor/confirm', { body: confirmation })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: twoFactorKey });
      queryClient.invalidateQueries({ queryKey: sessionsKey });
    },
  });
}
