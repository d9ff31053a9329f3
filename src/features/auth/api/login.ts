import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@/domain/entities.ts';
import type { LoginInput } from '@/domain/schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { switchUser } from '@/lib/auth.ts';

/** POST /api/login: the returned user becomes the signed-in user. */
export function login(input: LoginInput): Promise<User> {
  return answer(client.POST('/api/login', { body: input }));
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => switchUser(queryClient, user),
  });
}
