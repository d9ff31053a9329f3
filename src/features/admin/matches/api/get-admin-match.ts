import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/matches/{id}. */
export function getAdminMatch(id: number): Promise<Match> {
  return answer(client.GET('/api/admin/matches/{id}', { params: { path: { id } } }));
}

export function getAdminMatchQueryOptions(id: number) {
  return queryOptions({ queryKey: adminKeys.match(id), queryFn: () => getAdminMatch(id) });
}

export function useAdminMatch(id: number) {
  return useQuery({ ...getAdminMatchQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}
