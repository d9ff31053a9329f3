import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BetResult, Match } from '../domain/entities.ts';
import * as toaster from '../components/ui/toaster.tsx';
import { userQueryKey } from '../lib/auth.ts';
import { useBetResults } from '../lib/use-bet-results.ts';
import { reopenDelay, REOPEN_FIRST_MS, REOPEN_MAX_MS } from '../lib/match-updates.ts';
import { pollDelay, useLiveUpdatesDelayed, useMatchUpdates } from '../lib/use-match-updates.ts';
import { MATCH_POLL_JITTER_MS, MATCH_POLL_MS } from '../domain/live-updates.ts';
import { aMatch, aUser } from '../test/fixtures.ts';
// Each feature keeps its own cache in step with match changes once its queries are loaded.
import '../features/admin/shared/api/keys.ts';
import '../features/bets/api/get-bets.ts';
import '../features/matches/api/keys.ts';
import '../features/wallet/api/get-transactions.ts';
import '../lib/auth.ts';

/** Stands in for the browser's EventSource: the transport is not under test, what reaches the cache is. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  closed = false;
  readyState = FakeEventSource.CONNECTING;
  constructor(readonly url: string) {
    super();
    FakeEventSource.instances.push(this);
  }
  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }
  opened() {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  /** The server refused the stream (a 503): the browser gives up on this source. */
  refused() {
    this.readyState = FakeEventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }
  /** The connection dropped: the browser reconnects by itself. */
  dropped() {
    this.readyState = FakeEventSource.CONNECTING;
    this.dispatchEvent(new Event('error'));
  }
  emit(match: Match) {
    this.dispatchEvent(new MessageEvent('match', { data: JSON.stringify(match) }));
  }
  gap() {
    this.dispatchEvent(new MessageEvent('gap', { data: '{}' }));
  }
  result(result: BetResult) {
    this.dispatchEvent(new MessageEvent('result', { data: JSON.stringify(result) }));
  }
}

const live = aMatch({ id: 5, status: 'live', version: 3, team1_score: '40/1' });
const upcoming = aMatch({ id: 6, status: 'upcoming', version: 1, start_time: '2026-12-01T10:00:00Z' });

/** The tab's connection follows its subscribers once the current task's subscriptions are made. */
const connectionSettled = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  queryClient.setQueryData(['matches', 'detail', 5], live);
  queryClient.setQueryData(['matches', { status: 'live' }], [live]);
  queryClient.setQueryData(['matches', { status: 'upcoming' }], [upcoming]);
  queryClient.setQueryData(['admin', 'matches', 'list'], [upcoming, live]);
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  const refetched = () => invalidated.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useMatchUpdates(), { wrapper });
  await connectionSettled();
  const stream = FakeEventSource.instances.at(-1)!;
  return { queryClient, refetched, hook, stream };
}

describe('useMatchUpdates', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('writes a new score into the match and its list without refetching them', async () => {
    const { queryClient, refetched, hook, stream } = await setup();
    stream.emit({ ...live, version: 4, team1_score: '55/1' });
    expect(queryClient.getQueryData<Match>(['matches', 'detail', 5])?.team1_score).toBe('55/1');
    expect(queryClient.getQueryData<Match[]>(['matches', { status: 'live' }])?.map((m) => m.team1_score)).toEqual([
      '55/1',
    ]);
    expect(refetched().filter((key) => key.startsWith('["matches"') || key === '["user"]')).toEqual([]);
    hook.unmount();
  });

  it('keeps the newer state when an older one arrives late', async () => {
    const { queryClient, hook, stream } = await setup();
    stream.emit({ ...live, version: 2, team1_score: '10/0' });
    expect(queryClient.getQueryData<Match>(['matches', 'detail', 5])?.team1_score).toBe('40/1');
    expect(queryClient.getQueryData<Match[]>(['matches', { status: 'live' }])?.[0].team1_score).toBe('40/1');
    hook.unmount();
  });

  it('moves a match that starts from the upcoming list to the live list, in start order', async () => {
    const { queryClient, hook, stream } = await setup();
    stream.emit({ ...upcoming, status: 'live', version: 2 });
    expect(queryClient.getQueryData<Match[]>(['matches', { status: 'upcoming' }])).toEqual([]);
    expect(queryClient.getQueryData<Match[]>(['matches', { status: 'live' }])?.map((m) => m.id)).toEqual([5, 6]);
    expect(queryClient.getQueryData<Match[]>(['admin', 'matches', 'list'])?.map((m) => [m.id, m.status])).toEqual([
      [6, 'live'],
      [5, 'live'],
    ]);
    hook.unmount();
  });

  it("refreshes the player's own bets, ledger and balance once a match's settlement has ended, not at each batch", async () => {
    const { refetched, hook, stream } = await setup();
    const completed = { ...live, status: 'completed', match_result: 'Mumbai Indians won the match' } as const;
    stream.emit({ ...completed, version: 4, settlement: { state: 'settling', settled: 0, total: 4000 } });
    stream.emit({ ...completed, version: 5, settlement: { state: 'settling', settled: 2000, total: 4000 } });
    expect(refetched()).not.toEqual(expect.arrayContaining(['["user"]']));
    expect(refetched()).not.toEqual(expect.arrayContaining(['["bets"]']));
    expect(refetched()).toEqual(expect.arrayContaining(['["admin","matches","detail",5,"bets"]']));
    stream.emit({ ...completed, version: 6, settlement: { state: 'settled', settled: 4000, total: 4000 } });
    expect(refetched()).toEqual(
      expect.arrayContaining(['["bets"]', '["transactions"]', '["user"]', '["admin","users"]']),
    );
    hook.unmount();
  });

  it('refetches the match views once after a gap', async () => {
    const { refetched, hook, stream } = await setup();
    stream.gap();
    expect(refetched()).toEqual(expect.arrayContaining(['["matches"]', '["admin","matches"]', '["user"]']));
    hook.unmount();
  });

  it('shares one stream per tab and closes it with the last subscriber', async () => {
    const first = await setup();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={first.queryClient}>{children}</QueryClientProvider>
    );
    const second = renderHook(() => useMatchUpdates(), { wrapper });
    await connectionSettled();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.instances[0].url).toBe('/api/live/matches');
    first.hook.unmount();
    await connectionSettled();
    expect(FakeEventSource.instances[0].closed).toBe(false);
    second.unmount();
    await connectionSettled();
    expect(FakeEventSource.instances[0].closed).toBe(true);
  });
});

describe('when live updates cannot arrive', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function page() {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    const refetched = vi.spyOn(queryClient, 'refetchQueries').mockResolvedValue();
    const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const hook = renderHook(
      () => {
        useMatchUpdates();
        return useLiveUpdatesDelayed();
      },
      { wrapper },
    );
    await vi.advanceTimersByTimeAsync(0);
    const polls = () => refetched.mock.calls.filter(([filters]) => JSON.stringify(filters?.queryKey) === '["matches"]');
    return { hook, polls, invalidated, stream: FakeEventSource.instances.at(-1)! };
  }

  it('polls the public matches every few seconds while the stream is refused, and opens it again later', async () => {
    const { hook, polls, invalidated, stream } = await page();
    expect(hook.result.current).toBe(false);
    act(() => stream.refused());
    expect(hook.result.current).toBe(true);
    await vi.advanceTimersByTimeAsync(MATCH_POLL_MS + MATCH_POLL_JITTER_MS);
    expect(polls()).toHaveLength(1);
    expect(polls()[0][0]).toMatchObject({ type: 'active' });
    await vi.advanceTimersByTimeAsync(REOPEN_FIRST_MS * 1.5);
    const again = FakeEventSource.instances.at(-1)!;
    expect(again).not.toBe(stream);
    expect(polls().length).toBeGreaterThanOrEqual(2);
    invalidated.mockClear();
    act(() => again.opened());
    expect(hook.result.current).toBe(false);
    // what changed between the last poll and the new stream is read once
    expect(invalidated.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey))).toContain('["matches"]');
    const pollsWhenBack = polls().length;
    await vi.advanceTimersByTimeAsync(3 * MATCH_POLL_MS);
    expect(polls()).toHaveLength(pollsWhenBack);
    hook.unmount();
  });

  it('polls while a dropped stream reconnects by itself, and stops when it is back', async () => {
    const { hook, polls, stream } = await page();
    act(() => stream.opened());
    act(() => stream.dropped());
    expect(hook.result.current).toBe(true);
    await vi.advanceTimersByTimeAsync(MATCH_POLL_MS + MATCH_POLL_JITTER_MS);
    expect(polls()).toHaveLength(1);
    act(() => stream.opened());
    expect(hook.result.current).toBe(false);
    await vi.advanceTimersByTimeAsync(3 * MATCH_POLL_MS);
    expect(polls()).toHaveLength(1);
    expect(FakeEventSource.instances).toHaveLength(1); // the browser's own reconnection, resuming where it was
    hook.unmount();
  });

  it('waits longer after each refusal, at random, so a refused crowd does not knock in step', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((attempt) => reopenDelay(attempt, () => 0.5))).toEqual([
      5_000,
      10_000,
      20_000,
      40_000,
      80_000,
      160_000,
      REOPEN_MAX_MS,
      REOPEN_MAX_MS,
    ]);
    expect(reopenDelay(1, () => 0)).toBe(REOPEN_FIRST_MS / 2);
    expect(reopenDelay(1, () => 0.999)).toBeLessThan(REOPEN_FIRST_MS * 1.5);
    expect(pollDelay(() => 0)).toBe(MATCH_POLL_MS - MATCH_POLL_JITTER_MS);
    expect(pollDelay(() => 1)).toBe(MATCH_POLL_MS + MATCH_POLL_JITTER_MS);
  });
});

describe('useBetResults', () => {
  const won: BetResult = { match_id: 5, match: 'MI vs CSK', outcome: 'won', amount: 3000, team: 'Mumbai Indians' };

  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  /** A page of `userId` (null: nobody signed in) subscribed to match updates and to the player's results. */
  async function signedIn(userId: number | null) {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    queryClient.setQueryData(userQueryKey, userId === null ? null : aUser({ id: userId }));
    const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const matches = renderHook(() => useMatchUpdates(), { wrapper });
    const results = renderHook(() => useBetResults(), { wrapper });
    await connectionSettled();
    const unmount = async () => {
      results.unmount();
      matches.unmount();
      await connectionSettled();
    };
    return { queryClient, invalidated, results, unmount };
  }

  it('tells the player their result and refreshes their money as it arrives', async () => {
    const notify = vi.spyOn(toaster, 'notify').mockImplementation(() => {});
    const { invalidated, unmount } = await signedIn(7);
    expect(FakeEventSource.instances).toHaveLength(1); // one stream for the match updates and the results
    FakeEventSource.instances[0].result(won);
    expect(notify).toHaveBeenCalledWith({ title: 'You won ₹3,000', description: 'MI vs CSK' });
    expect(invalidated.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey))).toContain('["user"]');
    await unmount();
    expect(FakeEventSource.instances[0].closed).toBe(true);
  });

  it('keeps the stream for match updates only when nobody is signed in, and reopens it at sign-in', async () => {
    const notify = vi.spyOn(toaster, 'notify').mockImplementation(() => {});
    const { queryClient, unmount } = await signedIn(null);
    expect(FakeEventSource.instances).toHaveLength(1);
    act(() => queryClient.setQueryData(userQueryKey, aUser({ id: 7 })));
    await waitFor(() => expect(FakeEventSource.instances[0].closed).toBe(true));
    expect(FakeEventSource.instances.filter((stream) => !stream.closed)).toHaveLength(1);
    FakeEventSource.instances.at(-1)!.result(won);
    expect(notify).toHaveBeenCalledTimes(1);
    await unmount();
  });

  it('reopens the shared stream when another player signs in or the player leaves, so results reach only whoever is signed in', async () => {
    const { queryClient, results, unmount } = await signedIn(7);
    act(() => queryClient.setQueryData(userQueryKey, aUser({ id: 8 })));
    await waitFor(() => expect(FakeEventSource.instances[0].closed).toBe(true));
    expect(FakeEventSource.instances.filter((stream) => !stream.closed)).toHaveLength(1);
    results.unmount(); // signed out: the match updates go on, on a stream without anyone's results
    await connectionSettled();
    const open = FakeEventSource.instances.filter((stream) => !stream.closed);
    expect(open).toHaveLength(1);
    expect(open[0]).not.toBe(FakeEventSource.instances[1]);
    await unmount();
  });
});
