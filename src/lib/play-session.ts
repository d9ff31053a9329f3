/**
 * This play session (GET /api/account/play-session): its start, the server's time, the reality-check
 * interval and the net result of bets since. The header's clock and the reality checks run from it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { playedMs } from '../domain/reality-check.ts';
import { answer, client } from './api-client.ts';

export const playSessionKey = ['play-session'] as const;

/**
 * Asked again every few minutes while the app is open: an open app is play, and each request keeps the
 * server's play session going (it restarts after 30 minutes without one).
 */
const REFRESH_MS = 5 * 60_000;

export function getPlaySessionQueryOptions() {
  return queryOptions({
    queryKey: playSessionKey,
    queryFn: () => answer(client.GET('/api/account/play-session')),
    refetchInterval: REFRESH_MS,
  });
}

/** `enabled: false` while nobody is signed in. */
export function usePlaySession(enabled: boolean) {
  return useQuery({ ...getPlaySessionQueryOptions(), enabled });
}

/** The device's time, renewed every `everyMs` (for clocks that show minutes). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** How often the clocks are renewed: they show whole minutes. */
const TICK_MS = 15_000;

/** This play session and the time played in it now (server figures; the device clock only counts since). */
export function usePlayTime(enabled: boolean) {
  const query = usePlaySession(enabled);
  const now = useNow(TICK_MS);
  const session = query.data;
  const played = session ? playedMs(session, query.dataUpdatedAt, Math.max(now, query.dataUpdatedAt)) : 0;
  return { session, played, refetch: query.refetch };
}
