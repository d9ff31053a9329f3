/** PATCH /api/user: the user's name and phone number; the answer is the signed-in user, cached as such. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileInput } from '@/domain/schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { userQueryKey } from '@/lib/auth.ts';

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => answer(client.PATCH('/api/user', { body: input })),
    onSuccess: (user) => queryClient.setQueryData(userQueryKey, user),
  });
}
