import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/users/{id}. */
export function getAdminUser(id: number): Promise<User> {
  return answer(client.GET('/api/admin/users/{id}', { params: { path: { id } } }));
}

export function getAdminUserQueryOptions(id: number) {
  return queryOptions({ queryKey: adminKeys.user(id), queryFn: () => getAdminUser(id) });
}

export function useAdminUser(id: number) {
  return useQuery({ ...getAdminUserQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}
