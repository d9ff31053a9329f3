import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettingsChange } from '@/domain/risk.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/settings/changes: the settings changes waiting for a second administrator, newest first. */
export function getSettingsChanges(): Promise<SettingsChange[]> {
  return answer(client.GET('/api/admin/settings/changes'));
}

export function useSettingsChanges() {
  return useQuery(queryOptions({ queryKey: adminKeys.settingsChanges, queryFn: getSettingsChanges }));
}

export interface SettingsDecision {
  id: number;
  decision: 'approve' | 'reject';
}

/**
 * POST /api/admin/settings/changes/{id}/approve | reject: another admin applies the change (never its
 * proposer) or drops it (its proposer may withdraw it).
 */
export function decideSettingsChange({ id, decision }: SettingsDecision): Promise<SettingsChange> {
  const options = { params: { path: { id } } };
  return answer(
    decision === 'approve'
      ? client.POST('/api/admin/settings/changes/{id}/approve', options)
      : client.POST('/api/admin/settings/changes/{id}/reject', options),
  );
}

/**
 * The refetches are started, not awaited: the decided change leaves the list, which unmounts the item that
 * called mutate, and TanStack Query skips the callbacks of an unmounted caller (its toast would be lost).
 */
export function useDecideSettingsChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideSettingsChange,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.settingsChanges });
      void queryClient.invalidateQueries({ queryKey: adminKeys.settings, exact: true });
    },
  });
}
