/**
 * Query keys of the back office. Everything admin sits under 'admin', so one prefix refreshes a whole
 * area. A match change (a live event or an admin's own change) is written into the cached admin match and
 * list; what it makes stale (counts, risk, and after a settlement the bets, users and ledgers) is refetched.
 * The player caches are kept by their own features (src/lib/cache-sync.ts).
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Match } from '@/domain/entities.ts';
import { listenToCacheChanges, newerThanCached, newestStartFirst, placeInList } from '@/lib/cache-sync.ts';

export const adminKeys = {
  all: ['admin'] as const,
  dashboard: ['admin', 'dashboard'] as const,
  teams: ['admin', 'teams'] as const,
  matches: ['admin', 'matches'] as const,
  matchList: ['admin', 'matches', 'list'] as const,
  match: (id: number) => ['admin', 'matches', 'detail', id] as const,
  matchBets: (id: number) => ['admin', 'matches', 'detail', id, 'bets'] as const,
  matchRisk: (id: number) => ['admin', 'matches', 'detail', id, 'risk'] as const,
  users: ['admin', 'users'] as const,
  userList: ['admin', 'users', 'list'] as const,
  userCounts: ['admin', 'users', 'counts'] as const,
  user: (id: number) => ['admin', 'users', 'detail', id] as const,
  userTransactions: (id: number) => ['admin', 'users', 'detail', id, 'transactions'] as const,
  userBets: (id: number) => ['admin', 'users', 'detail', id, 'bets'] as const,
  userBankAccounts: (id: number) => ['admin', 'users', 'detail', id, 'bank-accounts'] as const,
  userLinked: (id: number) => ['admin', 'users', 'detail', id, 'linked'] as const,
  transactions: ['admin', 'transactions'] as const,
  transactionCounts: ['admin', 'transactions', 'counts'] as const,
  settings: ['admin', 'settings'] as const,
  settingsChanges: ['admin', 'settings', 'changes'] as const,
  /** GET /api/wallet/transactions?userId=: a user's ledger on the wallet management page. */
  walletTransactions: ['admin', 'wallet-transactions'] as const,
  userWalletTransactions: (id: number) => ['admin', 'wallet-transactions', id] as const,
};

function invalidate(queryClient: QueryClient, keys: readonly QueryKey[]): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

listenToCacheChanges({
  matchChanged: (queryClient, match) => {
    queryClient.setQueryData<Match>(adminKeys.match(match.id), newerThanCached<Match>(match));
    const list = queryClient.getQueryData<Match[]>(adminKeys.matchList);
    if (list) queryClient.setQueryData(adminKeys.matchList, placeInList(list, match, true, newestStartFirst));
    invalidate(queryClient, [adminKeys.dashboard, adminKeys.matchRisk(match.id)]);
    if (match.status !== 'completed') return;
    // Each batch of the settlement shows in the match's bets; the users and ledgers once it has ended.
    invalidate(queryClient, [adminKeys.matchBets(match.id)]);
    if (match.settlement?.state !== 'settling')
      invalidate(queryClient, [adminKeys.users, adminKeys.transactions, adminKeys.walletTransactions]);
  },
  matchChangesMissed: (queryClient) =>
    invalidate(queryClient, [adminKeys.matches, adminKeys.dashboard, adminKeys.walletTransactions]),
});
