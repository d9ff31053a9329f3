import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PendingSettingsChange, RiskSettings } from '@/domain/risk.ts';
import { answer, client } from '@/lib/api-client.ts';
import { getRiskSettingsQueryOptions } from './get-risk-settings.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/**
 * PUT /api/admin/settings: the settings given change (audited); answers all of them as they now are (200),
 * or, when the change raises a control on admin money, the change waiting for another admin (202).
 */
export function updateRiskSettings(changes: Partial<RiskSettings>): Promise<RiskSettings | PendingSettingsChange> {
  return answer(client.PUT('/api/admin/settings', { body: changes }));
}

export interface SettingsUpdate {
  /** the settings as they now are */
  settings: RiskSettings;
  /** the part of the change that waits for a second administrator, or null when everything applied */
  pending: PendingSettingsChange | null;
}

/**
 * Matches whose betting state the change closes or reopens are announced by the database, like any match
 * change. A change that waits for another admin may still have applied the rest of the form: the settings are
 * read again.
 */
export function useUpdateRiskSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: Partial<RiskSettings>): Promise<SettingsUpdate> => {
      const answer = await updateRiskSettings(changes);
      if (!('change' in answer)) return { settings: answer, pending: null };
      void queryClient.invalidateQueries({ queryKey: adminKeys.settingsChanges });
      const settings = await queryClient.fetchQuery({ ...getRiskSettingsQueryOptions(), staleTime: 0 });
      return { settings, pending: answer };
    },
    onSuccess: ({ settings }) => queryClient.setQueryData(adminKeys.settings, settings),
  });
}
