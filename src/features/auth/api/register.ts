import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@/domain/entities.ts';
import type { RegisterInput } from '@/domain/schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { switchUser } from '@/lib/auth.ts';

/** POST /api/register: name, username, email, password, phone, referral_code; the user is signed in. */
export function register(input: RegisterInput): Promise<User> {
  return answer(client.POST('/api/register', { body: input }));
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => switchUser(queryClient, user),
  });
}
