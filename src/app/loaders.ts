/**
 * What the route loaders share: they put a screen's reads into the query cache (under the keys the screen's
 * own hooks use), so the screen renders with its data instead of spinners; on the first load this makes
 * the first paint the finished page. A loader waits for its reads at most READ_WAIT_MS, then the screen
 * renders anyway and shows its spinners as usual; a failed read is left to the screen (its error text and
 * toast), so a loader never fails.
 */
import type { FetchInfiniteQueryOptions, FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import { getUserQueryOptions } from '../lib/auth.ts';
import { queryClient } from '../lib/query-client.ts';

/** Longest wait for a screen's reads before it renders anyway. */
export const READ_WAIT_MS = 1000;

export interface Read {
  queryKey: QueryKey;
  load: () => Promise<unknown>;
}

// The options' own generics vary per query; `any` here only spares each call site a cast.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const read = (options: FetchQueryOptions<any, any, any, any>): Read => ({
  queryKey: options.queryKey,
  load: () => queryClient.ensureQueryData(options),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const pagedRead = (options: FetchInfiniteQueryOptions<any, any, any, any, any>): Read => ({
  queryKey: options.queryKey,
  load: () => queryClient.ensureInfiniteQueryData(options),
});

function withinWait(reads: Promise<unknown>[]): Promise<null> {
  const all = Promise.all(reads.map((pending) => pending.catch(() => undefined)));
  return Promise.race([all, new Promise((resolve) => setTimeout(resolve, READ_WAIT_MS))]).then(() => null);
}

/** The signed-in user (or null), which every page's header shows and the guards check. */
export const loadUser = () => withinWait([queryClient.ensureQueryData(getUserQueryOptions())]);

/**
 * A screen's reads: `open` ones anyone may make, `player` ones of the signed-in player. Both start at once,
 * beside the user's own read; the player's are dropped from the cache again when nobody is signed in.
 */
export function loadReads({ open = [], player = [] }: { open?: Read[]; player?: Read[] }): Promise<null> {
  const user = queryClient.ensureQueryData(getUserQueryOptions()).catch(() => null);
  const playerReads = player.map((entry) => entry.load());
  const signedOut = user.then((current) => {
    if (!current) for (const { queryKey } of player) queryClient.removeQueries({ queryKey, exact: true });
  });
  return withinWait([user, signedOut, ...open.map((entry) => entry.load()), ...playerReads]);
}
