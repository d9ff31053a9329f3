import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RiskSettings } from '../../../domain/risk.ts';
import { api } from '../../../lib/api-client.ts';
import { adminKeys } from './keys.ts';

/** PUT /api/admin/settings: the settings given change (audited); answers all of them as they now are. */
export function updateRiskSettings(changes: Partial<RiskSettings>): Promise<RiskSettings> {
  return api.put<RiskSettings>('/api/admin/settings', changes);
}

/** Matches whose betting state the change closes or reopens are announced by the database, like any match change. */
export function useUpdateRiskSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRiskSettings,
    onSuccess: (settings) => queryClient.setQueryData(adminKeys.settings, settings),
  });
}
