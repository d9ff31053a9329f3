import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RiskSettings } from '@/domain/risk.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/settings: the house-risk settings. */
export function getRiskSettings(): Promise<RiskSettings> {
  return answer(client.GET('/api/admin/settings'));
}

export function getRiskSettingsQueryOptions() {
  return queryOptions({ queryKey: adminKeys.settings, queryFn: getRiskSettings });
}

export function useRiskSettings() {
  return useQuery(getRiskSettingsQueryOptions());
}
