import type { QueryClient } from '@tanstack/react-query';
import { announceMoneyMoved } from '@/lib/cache-sync.ts';
import { adminKeys } from './keys.ts';

/*
 * (Match changes: announceMatchChange in src/lib/cache-sync.ts, shared with the live updates.)
 * The refetches are started, not awaited: a mutation's own onSuccess waits for a returned promise, and the
 * refetched data can unmount the component that called mutate (a settled match drops its Declare Winner
 * card), and TanStack Query skips the per-call callbacks of an unmounted caller — the toast would be lost.
 */
function invalidate(queryClient: QueryClient, keys: readonly (readonly unknown[])[]): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/** After a wallet or ledger change of one user: that user, the lists, the dashboard and the player's money. */
export function invalidateUserMoney(queryClient: QueryClient): void {
  invalidate(queryClient, [adminKeys.users, adminKeys.transactions, adminKeys.dashboard, adminKeys.walletTransactions]);
  void announceMoneyMoved(queryClient);
}

/** After a status change: the users (list and detail) and the dashboard's counts. */
export function invalidateUserStatus(queryClient: QueryClient): void {
  invalidate(queryClient, [adminKeys.users, adminKeys.dashboard]);
}
