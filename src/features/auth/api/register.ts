import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '../../../domain/entities.ts';
import type { RegisterInput } from '../../../domain/schemas.ts';
import { api } from '../../../lib/api-client.ts';
import { userQueryKey } from './get-user.ts';

/** POST /api/register: name, username, email, password, phone, referral_code; the user is signed in. */
export function register(input: RegisterInput): Promise<User> {
  return api.post<User>('/api/register', input);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userQueryKey[0] });
      queryClient.setQueryData(userQueryKey, user);
    },
  });
}
