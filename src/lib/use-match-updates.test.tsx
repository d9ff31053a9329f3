import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useMatchUpdates } from './use-match-updates.ts';

/** Stands in for the browser's EventSource: the transport is not under test, what gets refreshed is. */
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
  emit(update: { id: number; status: string }) {
    this.dispatchEvent(new MessageEvent('match', { data: JSON.stringify(update) }));
  }
}

function setup(matchId?: number) {
  const queryClient = new QueryClient();
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useMatchUpdates(matchId), { wrapper });
  const keys = () => invalidated.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
  return { hook, keys, invalidated };
}

describe('useMatchUpdates', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('refreshes the match views on a live update, but not balances', () => {
    const { keys, hook } = setup();
    FakeEventSource.instances[0].emit({ id: 5, status: 'live' });
    expect(keys()).toEqual(expect.arrayContaining(['["matches"]', '["admin","matches"]', '["admin","dashboard"]']));
    expect(keys()).not.toContain('["user"]');
    hook.unmount();
  });

  it("refreshes bets, ledgers and the player's balance when a match is settled", () => {
    const { keys, hook } = setup();
    FakeEventSource.instances[0].emit({ id: 5, status: 'completed' });
    expect(keys()).toEqual(expect.arrayContaining(['["matches"]', '["bets"]', '["transactions"]', '["user"]']));
    hook.unmount();
  });

  it('ignores other matches when watching one', () => {
    const { keys, hook } = setup(7);
    FakeEventSource.instances[0].emit({ id: 5, status: 'completed' });
    expect(keys()).toEqual([]);
    FakeEventSource.instances[0].emit({ id: 7, status: 'live' });
    expect(keys()).toContain('["matches"]');
    hook.unmount();
  });

  it('shares one stream per tab and closes it with the last subscriber', () => {
    const first = setup();
    const second = setup(3);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.instances[0].url).toBe('/api/live/matches');
    first.hook.unmount();
    expect(FakeEventSource.instances[0].closed).toBe(false);
    second.hook.unmount();
    expect(FakeEventSource.instances[0].closed).toBe(true);
  });
});
