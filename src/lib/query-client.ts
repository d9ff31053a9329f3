import { QueryClient } from '@tanstack/react-query';

/** Query defaults: fresh for 60 s, refetch on focus and mount, no retries. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchInterval: false,
      refetchOnWindowFocus: true,
      refetchOnMount: true,
      retry: false,
    },
    mutations: { retry: false },
  },
});
