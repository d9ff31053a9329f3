/**
 * The player's protection writes: PUT /api/account/limits, POST /api/account/timeout, POST
 * /api/account/self-exclusion. Each answers the protection after the change, which replaces the cached one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SelfExclusionMonths, TimeoutDays } from '@/domain/protection.ts';
import type { AccountLimits, DepositLimitInput } from '@/domain/protection-schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { accountLimitsKey } from '@/lib/account-limits.ts';

export function setDepositLimit(input: DepositLimitInput): Promise<AccountLimits> {
  return answer(client.PUT('/api/account/limits', { body: input }));
}

export function takeTimeout(days: TimeoutDays): Promise<AccountLimits> {
  return answer(client.POST('/api/account/timeout', { body: { days } }));
}

export function selfExclude(months: SelfExclusionMonths): Promise<AccountLimits> {
  return answer(client.POST('/api/account/self-exclusion', { body: { months } }));
}

function useProtectionChange<T>(change: (input: T) => Promise<AccountLimits>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (limits) => queryClient.setQueryData(accountLimitsKey(), limits),
  });
}

export const useSetDepositLimit = () => useProtectionChange(setDepositLimit);
export const useTakeTimeout = () => useProtectionChange(takeTimeout);
export const useSelfExclude = () => useProtectionChange(selfExclude);
