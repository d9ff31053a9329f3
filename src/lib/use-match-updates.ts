import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Match } from '../domain/entities.ts';
import { subscribeToMatchUpdates } from './match-updates.ts';

/** The lists the API answers in start order (GET /api/matches?status=…) and newest start first (admin). */
const startOrder = (a: Match, b: Match) => Date.parse(a.start_time) - Date.parse(b.start_time) || a.id - b.id;
const newestStartFirst = (a: Match, b: Match) => startOrder(b, a);

/** `list` with `match` in its place (or out of it when it no longer belongs), unless the list is as new. */
function placeInList(list: Match[], match: Match, belongs: boolean, order: (a: Match, b: Match) => number): Match[] {
  const cached = list.find((entry) => entry.id === match.id);
  if (cached && cached.version >= match.version) return list;
  const others = list.filter((entry) => entry.id !== match.id);
  return belongs ? [...others, match].sort(order) : others;
}

/** A cached single match replaced by `match` when that is newer; absent or not-found caches stay as they are. */
function newerThanCached<T extends Match | null>(match: Match) {
  return (cached: T | undefined): T | undefined => (cached && cached.version < match.version ? (match as T) : cached);
}

function invalidate(queryClient: QueryClient, keys: QueryKey[]): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/**
 * Writes a match the server sent — a live event, or the answer to an admin's own change — into every cached
 * view of it (the match pages, the live and upcoming lists, the admin list): no view reads it back. Only a
 * state newer than the cached one is written (events may cross; versions order them). What the change
 * makes stale elsewhere is refetched: the admin counts and risk view always; once the match is completed
 * (settled or abandoned) money has moved, so the signed-in player's own bets, ledger and balance too.
 */
export function applyMatchChange(queryClient: QueryClient, match: Match): void {
  queryClient.setQueryData<Match | null>(['matches', 'detail', match.id], newerThanCached<Match | null>(match));
  queryClient.setQueryData<Match>(['admin', 'matches', 'detail', match.id], newerThanCached<Match>(match));
  for (const [queryKey, list] of queryClient.getQueriesData<Match[]>({ queryKey: ['matches'] })) {
    const status = (queryKey[1] as { status?: string } | undefined)?.status;
    if (status && list) queryClient.setQueryData(queryKey, placeInList(list, match, match.status === status, startOrder));
  }
  const adminList = queryClient.getQueryData<Match[]>(['admin', 'matches', 'list']);
  if (adminList) queryClient.setQueryData(['admin', 'matches', 'list'], placeInList(adminList, match, true, newestStartFirst));

  invalidate(queryClient, [['admin', 'dashboard'], ['admin', 'matches', 'detail', match.id, 'risk']]);
  if (match.status === 'completed') {
    invalidate(queryClient, [
      ['bets'], ['transactions'], ['user'],
      ['admin', 'matches', 'detail', match.id, 'bets'], ['admin', 'users'], ['admin', 'transactions'],
    ]);
  }
}

/** After a gap in the updates (changes may have been missed): every match view and the balances, once. */
export function refetchAfterGap(queryClient: QueryClient): void {
  invalidate(queryClient, [['matches'], ['admin', 'matches'], ['admin', 'dashboard'], ['bets'], ['transactions'], ['user']]);
}

/** One subscription per query cache, however many components ask for live updates. */
const attached = new Map<QueryClient, { users: number; unsubscribe: () => void }>();

/**
 * Keeps the page's match data live (Home, the live match page, the admin match pages): while at least one
 * component using it is mounted, every pushed change is written into the query cache (applyMatchChange).
 */
export function useMatchUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const entry = attached.get(queryClient) ?? {
      users: 0,
      unsubscribe: subscribeToMatchUpdates((match) =>
        match ? applyMatchChange(queryClient, match) : refetchAfterGap(queryClient)),
    };
    attached.set(queryClient, entry);
    entry.users += 1;
    return () => {
      entry.users -= 1;
      if (entry.users === 0) {
        entry.unsubscribe();
        attached.delete(queryClient);
      }
    };
  }, [queryClient]);
}
