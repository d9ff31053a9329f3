import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { MATCH_POLL_JITTER_MS, MATCH_POLL_MS } from '../domain/live-updates.ts';
import { announceMatchChange, announceMissedMatchChanges, announcePoll } from './cache-sync.ts';
import { liveStatus, subscribeToLiveStatus, subscribeToMatchUpdates } from './match-updates.ts';

/** One subscription per query cache, however many components ask for live updates. */
const attached = new Map<QueryClient, { users: number; unsubscribe: () => void }>();

/** The wait before the next poll: MATCH_POLL_MS ± MATCH_POLL_JITTER_MS. */
export function pollDelay(random = Math.random): number {
  return Math.round(MATCH_POLL_MS + (random() * 2 - 1) * MATCH_POLL_JITTER_MS);
}

/**
 * While live updates are delayed, the public match reads the page shows are polled every few seconds (a
 * shared cache answers them for the whole crowd); the poll stops when the channel is back.
 */
function pollWhileDelayed(queryClient: QueryClient): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const follow = () => {
    if (liveStatus() !== 'delayed') {
      clearTimeout(timer);
      timer = undefined;
    } else if (timer === undefined) {
      const poll = () => {
        announcePoll(queryClient);
        timer = setTimeout(poll, pollDelay());
      };
      timer = setTimeout(poll, pollDelay());
    }
  };
  const unsubscribe = subscribeToLiveStatus(follow);
  follow();
  return () => {
    unsubscribe();
    clearTimeout(timer);
  };
}

/**
 * Keeps the page's match data live (Home, the live match page, the admin match pages): while at least one
 * component using it is mounted, every pushed change is written into the query cache (cache-sync.ts), and
 * while no change can be pushed (match-updates.ts) the page's public match reads are polled.
 */
export function useMatchUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let entry = attached.get(queryClient);
    if (!entry) {
      const unsubscribe = subscribeToMatchUpdates((match) =>
        match ? announceMatchChange(queryClient, match) : announceMissedMatchChanges(queryClient),
      );
      const stopPolling = pollWhileDelayed(queryClient);
      entry = {
        users: 0,
        unsubscribe: () => {
          stopPolling();
          unsubscribe();
        },
      };
    }
    const current = entry;
    attached.set(queryClient, current);
    current.users += 1;
    return () => {
      current.users -= 1;
      if (current.users === 0) {
        current.unsubscribe();
        attached.delete(queryClient);
      }
    };
  }, [queryClient]);
}

/** Whether live updates are delayed now (the channel refused, over quota or lost): the page polls meanwhile. */
export function useLiveUpdatesDelayed(): boolean {
  return useSyncExternalStore(subscribeToLiveStatus, () => liveStatus() === 'delayed');
}
