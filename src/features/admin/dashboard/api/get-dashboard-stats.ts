import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '@/domain/admin-entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/dashboard/stats: the figures (last 7 days where it says so). */
export function getDashboardStats(): Promise<DashboardStats> {
  return answer(client.GET('/api/admin/dashboard/stats'));
}

export function getDashboardStatsQueryOptions() {
  return queryOptions({ queryKey: adminKeys.dashboard, queryFn: getDashboardStats });
}

export function useDashboardStats() {
  return useQuery(getDashboardStatsQueryOptions());
}
