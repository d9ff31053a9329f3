/** POST /api/account/password: the user's other sessions end, so the list of sessions is read again. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@/domain/account-security-schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { sessionsKey } from './sessions.ts';

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => answer(client.POST('/api/account/password', { body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
