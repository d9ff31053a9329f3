import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { announceMatchChange, announceMissedMatchChanges } from './cache-sync.ts';
import { subscribeToMatchUpdates } from './match-updates.ts';

/** One subscription per query cache, however many components ask for live updates. */
const attached = new Map<QueryClient, { users: number; unsubscribe: () => void }>();

/**
 * Keeps the page's match data live (Home, the live match page, the admin match pages): while at least one
 * component using it is mounted, every pushed change is written into the query cache (cache-sync.ts).
 */
export function useMatchUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const entry = attached.get(queryClient) ?? {
      users: 0,
      unsubscribe: subscribeToMatchUpdates((match) =>
        match ? announceMatchChange(queryClient, match) : announceMissedMatchChanges(queryClient),
      ),
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
