import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LinkedAccount } from '@/domain/admin-entities.ts';
import type { AccountLimits } from '@/domain/protection-schemas.ts';
import { accountLimitsKey } from '@/lib/account-limits.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** GET /api/admin/users/{id}/linked: the accounts sharing a bank account, a phone number or a device, with why. */
export function getLinkedAccounts(id: number): Promise<LinkedAccount[]> {
  return answer(client.GET('/api/admin/users/{id}/linked', { params: { path: { id } } }));
}

export function useLinkedAccounts(id: number) {
  return useQuery(queryOptions({ queryKey: adminKeys.userLinked(id), queryFn: () => getLinkedAccounts(id) }));
}

export interface ApplyExclusionInput {
  /** the user whose page this is, who becomes bound */
  userId: number;
  /** the device-linked account whose running exclusion it is */
  linkedId: number;
}

/** POST /api/admin/users/{id}/linked/{linkedId}/exclusion: the user is bound by the linked account's exclusion. */
export function applyLinkedExclusion({ userId, linkedId }: ApplyExclusionInput): Promise<AccountLimits> {
  return answer(
    client.POST('/api/admin/users/{id}/linked/{linkedId}/exclusion', { params: { path: { id: userId, linkedId } } }),
  );
}

export function useApplyLinkedExclusion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyLinkedExclusion,
    onSuccess: (limits, { userId }) => {
      queryClient.setQueryData(accountLimitsKey(userId), limits);
      void queryClient.invalidateQueries({ queryKey: adminKeys.userLinked(userId) });
    },
  });
}
