/**
 * The signed-in user, shared by every screen (the header, the guards, the balance) and by whatever changes
 * it: sign-in and registration set it, signing out clears it with everything that was the user's.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { User } from '../domain/entities.ts';
import { answer, answerOrNull, client } from './api-client.ts';
import { listenToCacheChanges, refetchOnSettlement } from './cache-sync.ts';

export const userQueryKey = ['user'] as const;

/** The user carries the balance: it changes with every settlement and every money movement. */
listenToCacheChanges({
  ...refetchOnSettlement(userQueryKey),
  moneyMoved: (queryClient) => queryClient.invalidateQueries({ queryKey: userQueryKey }),
});

/** GET /api/user: the signed-in user, or null when the session is missing or has expired (401). */
export function getUser(): Promise<User | null> {
  return answerOrNull(client.GET('/api/user'));
}

export function getUserQueryOptions() {
  return queryOptions({ queryKey: userQueryKey, queryFn: getUser });
}

export function useUser() {
  return useQuery(getUserQueryOptions());
}

/** A new session (sign-in, registration, sign-out): the cached user becomes `user`, everything else goes. */
export function switchUser(queryClient: QueryClient, user: User | null): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userQueryKey[0] });
  queryClient.setQueryData(userQueryKey, user);
}

/** POST /api/logout: the answer is not read. */
export async function logout(): Promise<void> {
  await answer(client.POST('/api/logout'));
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: logout, onSuccess: () => switchUser(queryClient, null) });
}
