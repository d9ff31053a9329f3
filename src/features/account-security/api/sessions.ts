/**
 * GET /api/account/sessions (the user's signed-in browsers), DELETE /api/account/sessions/{id} (end one) and
 * POST /api/logout-all (end all, this one included: the user is signed out here too).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer, client } from '@/lib/api-client.ts';
import { switchUser } from '@/lib/auth.ts';

export const sessionsKey = ['account', 'sessions'] as const;

export function getSessionsQueryOptions() {
  return queryOptions({ queryKey: sessionsKey, queryFn: () => answer(client.GET('/api/account/sessions')) });
}

export const useSessions = () => useQuery(getSessionsQueryOptions());

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => answer(client.DELETE('/api/account/sessions/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useLogoutAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => answer(client.POST('/api/logout-all')),
    onSuccess: () => switchUser(queryClient, null),
  });
}
