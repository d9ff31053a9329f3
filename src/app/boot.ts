/**
 * Starts what the first screen needs as soon as the bundle runs, before the Chakra system is built and
 * React renders: the route's lazy chunk and its API reads (into the query cache, under the same keys the
 * screens use). main.tsx renders once they are in, or after BOOT_WAIT_MS at the latest, so the first
 * paint is the finished page (no spinner-to-content layout shift, no re-render per arriving response).
 * Must stay the first import of main.tsx: ES modules run in import order.
 */
import type { QueryKey } from '@tanstack/react-query';
import { getUserQueryOptions } from '../features/auth/api/get-user.ts';
import { getBankAccountsQueryOptions } from '../features/bank-accounts/api/get-bank-accounts.ts';
import { getBetsQueryOptions, RECENT_BETS } from '../features/bets/api/get-bets.ts';
import { getMatchQueryOptions } from '../features/matches/api/get-match.ts';
import { getMatchesQueryOptions } from '../features/matches/api/get-matches.ts';
import { getTransactionsQueryOptions } from '../features/wallet/api/get-transactions.ts';
import { queryClient } from '../lib/query-client.ts';
import { loadRoute, routeModules } from './route-modules.tsx';

/** Longest wait for the first screen's data before rendering anyway (spinners then show as usual). */
export const BOOT_WAIT_MS = 1000;

interface Preload {
  /** The route's lazy chunk (through route-modules, so the router renders it without suspending). */
  chunk: () => Promise<unknown>;
  /** Reads anyone may make. */
  open?: () => Promise<unknown>[];
  /** Reads of a signed-in player; dropped from the cache again when nobody is signed in. */
  player?: { keys: QueryKey[]; load: () => Promise<unknown>[] };
}

function preloadFor(pathname: string): Preload | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/matches') {
    return {
      chunk: () => loadRoute(routeModules.home),
      open: () => [queryClient.prefetchQuery(getMatchesQueryOptions('live')), queryClient.prefetchQuery(getMatchesQueryOptions('upcoming'))],
      player: {
        keys: [getBetsQueryOptions(RECENT_BETS).queryKey, getTransactionsQueryOptions().queryKey],
        load: () => [
          queryClient.prefetchInfiniteQuery(getBetsQueryOptions(RECENT_BETS)),
          queryClient.prefetchInfiniteQuery(getTransactionsQueryOptions()),
        ],
      },
    };
  }
  const live = /^\/live\/(\d+)$/.exec(path);
  if (live) {
    const options = getMatchQueryOptions(Number(live[1]));
    return {
      chunk: () => loadRoute(routeModules.liveMatch),
      player: { keys: [options.queryKey], load: () => [queryClient.prefetchQuery(options)] },
    };
  }
  if (path === '/wallet') {
    return {
      chunk: () => loadRoute(routeModules.wallet),
      player: {
        keys: [getTransactionsQueryOptions({ detailed: true }).queryKey, getBankAccountsQueryOptions().queryKey],
        load: () => [
          queryClient.prefetchInfiniteQuery(getTransactionsQueryOptions({ detailed: true })),
          queryClient.prefetchQuery(getBankAccountsQueryOptions()),
        ],
      },
    };
  }
  return undefined;
}

function preload(pathname: string): Promise<unknown> {
  const plan = preloadFor(pathname);
  if (!plan) return Promise.resolve();
  const user = queryClient.fetchQuery(getUserQueryOptions()).catch(() => undefined);
  const player = plan.player?.load() ?? [];
  const signedOut = user.then((current) => {
    if (!current) for (const queryKey of plan.player?.keys ?? []) queryClient.removeQueries({ queryKey, exact: true });
  });
  return Promise.all([plan.chunk().catch(() => undefined), user, signedOut, ...(plan.open?.() ?? []), ...player]);
}

export const bootReady: Promise<unknown> =
  typeof window === 'undefined'
    ? Promise.resolve()
    : Promise.race([preload(window.location.pathname), new Promise((resolve) => setTimeout(resolve, BOOT_WAIT_MS))]);
