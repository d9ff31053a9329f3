import { QueryClient, onlineManager } from '@tanstack/react-query';

// TanStack Query assumes a page starts online and learns otherwise from the `offline` event, which a page
// opened without a network never sees: start from what the browser knows.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);

/**
 * Query defaults: fresh for 60 s, refetch on focus and mount, no retries. Offline, reads pause and keep their
 * last answer; back online, every query refetches, however fresh it looked. Writes are never queued for later
 * (a bet or a deposit sent when the network returns would surprise the player): offline they fail at once.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchInterval: false,
      refetchOnWindowFocus: true,
      refetchOnMount: true,
      refetchOnReconnect: 'always',
      retry: false,
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});
