/** PATCH /api/user: the user's name and phone number; the answer is the signed-in user, cached as such. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@/domain/entities.ts';
import type { ProfileInput } from '@/domain/schemas.ts';
import { api } from '@/lib/api-client.ts';
import { userQueryKey } from '@/lib/auth.ts';

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.patch<User>('/api/user', input),
    onSuccess: (user) => queryClient.setQueryData(userQueryKey, user),
  });
}
