import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeToMatchUpdates } from './match-updates.ts';

/**
 * What a match change makes stale: every match view (player and admin) and the dashboard counts; when
 * the match is completed (settled or abandoned) money has moved, so bets, ledgers, users and the
 * signed-in player's balance too. Refetches are started, not awaited (only active queries refetch).
 */
export function refreshAfterMatchChange(queryClient: QueryClient, { moneyMoved }: { moneyMoved: boolean }): void {
  const keys: unknown[][] = [['matches'], ['admin', 'matches'], ['admin', 'dashboard']];
  if (moneyMoved) keys.push(['bets'], ['transactions'], ['user'], ['admin', 'users'], ['admin', 'transactions']);
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/**
 * Keeps the page's match data live: refreshes the affected queries on every change pushed by the
 * server (Home, the live match page, the admin match pages). `matchId` limits it to one match.
 */
export function useMatchUpdates(matchId?: number): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeToMatchUpdates((update) => {
        if (update && matchId !== undefined && update.id !== matchId) return;
        refreshAfterMatchChange(queryClient, { moneyMoved: update === null || update.status === 'completed' });
      }),
    [queryClient, matchId],
  );
}
