/**
 * Query keys of the public match reads, and what a match change means for them: the change is written into
 * the cached match and moved into (or out of) the cached live and upcoming lists; nothing is read back.
 * While live updates are delayed, the ones on screen are polled.
 */
import type { Match } from '@/domain/entities.ts';
import type { MatchStatus } from '@/domain/limits.ts';
import { listenToCacheChanges, newerThanCached, placeInList, startOrder } from '@/lib/cache-sync.ts';

export const matchKeys = {
  all: ['matches'] as const,
  list: (status: MatchStatus) => ['matches', { status }] as const,
  detail: (id: number) => ['matches', 'detail', id] as const,
};

listenToCacheChanges({
  matchChanged: (queryClient, match) => {
    queryClient.setQueryData<Match | null>(matchKeys.detail(match.id), newerThanCached<Match | null>(match));
    for (const [queryKey, list] of queryClient.getQueriesData<Match[]>({ queryKey: matchKeys.all })) {
      const status = (queryKey[1] as { status?: string } | undefined)?.status;
      if (status && list)
        queryClient.setQueryData(queryKey, placeInList(list, match, match.status === status, startOrder));
    }
  },
  matchChangesMissed: (queryClient) => void queryClient.invalidateQueries({ queryKey: matchKeys.all }),
  // the matches on screen now; a read still on its way is not started again
  poll: (queryClient) =>
    void queryClient.refetchQueries({ queryKey: matchKeys.all, type: 'active' }, { cancelRefetch: false }),
});
