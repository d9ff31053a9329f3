import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountLimits } from '../domain/protection-schemas.ts';
import { answer, client } from './api-client.ts';

/** The caller's protection under ['account-limits']; a player's, for an admin, under ['account-limits', id]. */
export const accountLimitsKey = (userId?: number) =>
  userId === undefined ? (['account-limits'] as const) : (['account-limits', userId] as const);

/** GET /api/account/limits: deposit limits, pending changes, time-out and self-exclusion (an admin: `?userId=`). */
export function getAccountLimits(userId?: number): Promise<AccountLimits> {
  return answer(client.GET('/api/account/limits', { params: { query: { userId } } }));
}

export function getAccountLimitsQueryOptions(userId?: number) {
  return queryOptions({ queryKey: accountLimitsKey(userId), queryFn: () => getAccountLimits(userId) });
}

/** `enabled: false` while nobody is signed in (the bet slip on a public page). */
export function useAccountLimits({ userId, enabled = true }: { userId?: number; enabled?: boolean } = {}) {
  return useQuery({ ...getAccountLimitsQueryOptions(userId), enabled });
}
