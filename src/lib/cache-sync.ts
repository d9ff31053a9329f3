/**
 * Changes that make another feature's cached reads stale. A feature never names another feature's query
 * keys: each registers, beside its own keys, what a match change or a money movement means for its cache,
 * and whoever learns of the change announces it here. A feature's listener is registered when its query
 * module loads, so every cache that exists has its listener (a lazy area such as the back office adds its
 * own when it loads).
 */
import { replaceEqualDeep, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Match } from '../domain/entities.ts';

export interface CacheListener {
  /** The server's current state of a match (a live event, or the answer to an admin's change). */
  matchChanged?(queryClient: QueryClient, match: Match): void;
  /** Match changes may have been missed (a gap the live feed could not replay): refetch once. */
  matchChangesMissed?(queryClient: QueryClient): void;
  /** The signed-in player's money moved (a bet, a deposit or withdrawal, an admin's adjustment). */
  moneyMoved?(queryClient: QueryClient): Promise<unknown> | void;
  /**
   * Live updates are delayed (no channel): read again what the page shows of the public matches. Only reads
   * a shared cache answers for everyone belong here: a crowd polls them every few seconds.
   */
  poll?(queryClient: QueryClient): void;
}

const listeners = new Set<CacheListener>();

export function listenToCacheChanges(listener: CacheListener): void {
  listeners.add(listener);
}

/** Writes a match the server sent into every cached view of it, and refetches what it makes stale. */
export function announceMatchChange(queryClient: QueryClient, match: Match): void {
  for (const listener of listeners) listener.matchChanged?.(queryClient, match);
}

export function announceMissedMatchChanges(queryClient: QueryClient): void {
  for (const listener of listeners) listener.matchChangesMissed?.(queryClient);
}

export function announcePoll(queryClient: QueryClient): void {
  for (const listener of listeners) listener.poll?.(queryClient);
}

/** Resolves when what shows the player's money has been refetched. */
export function announceMoneyMoved(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([...listeners].map((listener) => listener.moneyMoved?.(queryClient)));
}

/**
 * For reads that only a settlement changes among match changes (the player's bets, ledger and balance):
 * refetched once a match's settlement has ended, and after a gap. Not at each batch of it: a player whose
 * bets a batch settled hears so through their own result (use-bet-results.ts), and every open page
 * refetching at every batch would be a hundred thousand requests per batch on match day.
 */
export function refetchOnSettlement(queryKey: QueryKey): CacheListener {
  return {
    matchChanged: (queryClient, match) => {
      if (match.status === 'completed' && match.settlement?.state !== 'settling')
        void queryClient.invalidateQueries({ queryKey });
    },
    matchChangesMissed: (queryClient) => void queryClient.invalidateQueries({ queryKey }),
  };
}

/** The lists the API answers in start order (GET /api/matches?status=…) and newest start first (admin). */
export const startOrder = (a: Match, b: Match) => Date.parse(a.start_time) - Date.parse(b.start_time) || a.id - b.id;
export const newestStartFirst = (a: Match, b: Match) => startOrder(b, a);

/** `list` with `match` in its place (or out of it when it no longer belongs), unless the list is as new. */
export function placeInList(
  list: Match[],
  match: Match,
  belongs: boolean,
  order: (a: Match, b: Match) => number,
): Match[] {
  const cached = list.find((entry) => entry.id === match.id);
  if (cached && cached.version >= match.version) return list;
  const others = list.filter((entry) => entry.id !== match.id);
  return belongs ? [...others, match].sort(order) : others;
}

/** A cached single match replaced by `match` when that is newer; absent or not-found caches stay as they are. */
export function newerThanCached<T extends Match | null>(match: Match) {
  return (cached: T | undefined): T | undefined => (cached && cached.version < match.version ? (match as T) : cached);
}

const isMatch = (value: unknown): value is Match =>
  typeof value === 'object' && value !== null && typeof (value as Match).version === 'number';

/**
 * The `structuralSharing` of the public match reads: what a read brings replaces the cached data, except a
 * match older than the cached one (a lower version), which a shared cache may answer for a few seconds
 * after a change the page already has (pushed, or an admin's own write): the newer one stays. Whether a
 * match is in a list at all is the read's to say.
 */
export function keepNewerMatches(cached: unknown, fetched: unknown): unknown {
  const newer = (was: unknown, now: unknown) => (isMatch(was) && isMatch(now) && was.version > now.version ? was : now);
  if (Array.isArray(cached) && Array.isArray(fetched)) {
    const byId = new Map(cached.filter(isMatch).map((match) => [match.id, match]));
    return replaceEqualDeep(
      cached,
      fetched.map((match: unknown) => (isMatch(match) ? newer(byId.get(match.id), match) : match)),
    );
  }
  return replaceEqualDeep(cached, newer(cached, fetched));
}
