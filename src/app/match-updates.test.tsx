import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Match } from '../domain/entities.ts';
import { useMatchUpdates } from '../lib/use-match-updates.ts';
import { aMatch } from '../test/fixtures.ts';
// Each feature keeps its own cache in step with match changes once its queries are loaded.
import '../features/admin/api/keys.ts';
import '../features/bets/api/get-bets.ts';
import '../features/matches/api/keys.ts';
import '../features/wallet/api/get-transactions.ts';
import '../lib/auth.ts';

/** Stands in for the browser's EventSource: the transport is not under test, what reaches the cache is. */
class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeEventSource.instances.push(this);
  }
  close() {
    this.closed = true;
  }
  emit(match: Match) {
    this.dispatchEvent(new MessageEvent('match', { data: JSON.stringify(match) }));
  }
  gap() {
    this.dispatchEvent(new MessageEvent('gap', { data: '{}' }));
  }
}

const live = aMatch({ id: 5, status: 'live', version: 3, team1_score: '40/1' });
const upcoming = aMatch({ id: 6, status: 'upcoming', version: 1, start_time: '2026-12-01T10:00:00Z' });

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  queryClient.setQueryData(['matches', 'detail', 5], live);
  queryClient.setQueryData(['matches', { status: 'live' }], [live]);
  queryClient.setQueryData(['matches', { status: 'upcoming' }], [upcoming]);
  queryClient.setQueryData(['admin', 'matches', 'list'], [upcoming, live]);
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  const refetched = () => invalidated.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useMatchUpdates(), { wrapper });
  const stream = FakeEventSource.instances.at(-1)!;
  return { queryClient, refetched, hook, stream };
}

describe('useMatchUpdates', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('writes a new score into the match and its list without refetching them', () => {
    const { queryClient, refetched, hook, stream } = setup();
    stream.emit({ ...live, version: 4, team1_score: '55/1' });
    expect(queryClient.getQueryData<Match>(['matches', 'detail', 5])?.team1_score).toBe('55/1');
    expect(queryClient.getQueryData<Match[]>(['matches', { status: 'live' }])?.map((m) => m.team1_score)).toEqual(['55/1']);
    expect(refetched().filter((key) => key.startsWith('["matches"') || key === '["user"]')).toEqual([]);
    hook.unmount();
  });

  it('keeps the newer state when an older one arrives late', () => {
    const { queryClient, hook, stream } = setup();
    stream.emit({ ...live, version: 2, team1_score: '10/0' });
    expect(queryClient.getQueryData<Match>(['matches', 'detail', 5])?.team1_score).toBe('40/1');
    expect(queryClient.getQueryData<Match[]>(['matches', { status: 'live' }])?.[0].team1_score).toBe('40/1');
    hook.unmount();
  });

  it('moves a match that starts from the upcoming list to the live list, in start order', () => {
    const { queryClient, hook, stream } = setup();
    stream.emit({ ...upcoming, status: 'live', version: 2 });
    expect(queryClient.getQueryData<Match[]>(['matches', { status: 'upcoming' }])).toEqual([]);
    expect(queryClient.getQueryData<Match[]>(['matches', { status: 'live' }])?.map((m) => m.id)).toEqual([5, 6]);
    expect(queryClient.getQueryData<Match[]>(['admin', 'matches', 'list'])?.map((m) => [m.id, m.status]))
      .toEqual([[6, 'live'], [5, 'live']]);
    hook.unmount();
  });

  it("refreshes the player's own bets, ledger and balance once a match is settled", () => {
    const { refetched, hook, stream } = setup();
    stream.emit({ ...live, status: 'completed', version: 4, match_result: 'Mumbai Indians won the match' });
    expect(refetched()).toEqual(expect.arrayContaining(['["bets"]', '["transactions"]', '["user"]']));
    hook.unmount();
  });

  it('refetches the match views once after a gap', () => {
    const { refetched, hook, stream } = setup();
    stream.gap();
    expect(refetched()).toEqual(expect.arrayContaining(['["matches"]', '["admin","matches"]', '["user"]']));
    hook.unmount();
  });

  it('shares one stream per tab and closes it with the last subscriber', () => {
    const first = setup();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={first.queryClient}>{children}</QueryClientProvider>
    );
    const second = renderHook(() => useMatchUpdates(), { wrapper });
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.instances[0].url).toBe('/api/live/matches');
    first.hook.unmount();
    expect(FakeEventSource.instances[0].closed).toBe(false);
    second.unmount();
    expect(FakeEventSource.instances[0].closed).toBe(true);
  });
});
