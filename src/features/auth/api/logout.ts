import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { userQueryKey } from './get-user.ts';

/** POST /api/logout: the answer is not read; the cached user and everything that was theirs go. */
export async function logout(): Promise<void> {
  await api.post<unknown>('/api/logout');
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userQueryKey[0] });
      queryClient.setQueryData(userQueryKey, null);
    },
  });
}
