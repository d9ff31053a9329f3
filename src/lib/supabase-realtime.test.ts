import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.ts';

/** What the page asked of Supabase Realtime, in order. */
const calls: string[] = [];
const listeners = new Map<string, (message: { payload: unknown }) => void>();
/** What Realtime answers the join of `matches` with: SUBSCRIBED, or a refusal (CHANNEL_ERROR, TIMED_OUT, CLOSED). */
let joinAnswer = 'SUBSCRIBED';
/** What GET /api/live/token answers: a token, or a failure (no JWT secret configured: 404; a session ended: 401). */
let tokenAnswer: () => Promise<{ token: string; expires_at: string }>;
/** A token of the API's: it lasts 5 minutes. */
const aToken = (token: string) => async () => ({ token, expires_at: new Date(Date.now() + 300_000).toISOString() });

vi.mock('./api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api-client.ts')>()),
  client: {
    GET: async (path: string) => (calls.push(`GET ${path}`), { data: await tokenAnswer(), response: new Response() }),
  },
}));

vi.mock('@supabase/supabase-js', () => ({
  createClient: (url: string, key: string) => {
    calls.push(`client ${url} ${key}`);
    return {
      realtime: { setAuth: async (token: string) => void calls.push(`setAuth ${token}`) },
      channel: (topic: string, options: { config: { private: boolean } }) => {
        calls.push(`channel ${topic} private=${options.config.private}`);
        const channel = {
          on: (_type: string, _filter: unknown, listener: (message: { payload: unknown }) => void) => (
            listeners.set(topic, listener),
            channel
          ),
          subscribe: (status?: (state: string) => void) => (
            calls.push(`subscribe ${topic}`),
            status?.(topic === 'matches' ? joinAnswer : 'SUBSCRIBED'),
            channel
          ),
        };
        return channel;
      },
      removeChannel: async () => void calls.push('remove'),
    };
  },
}));

const { subscribeToLive } = await import('./supabase-realtime.ts');

function delivery() {
  const published: unknown[] = [];
  const results: unknown[] = [];
  const states: string[] = [];
  return {
    published,
    results,
    states,
    delivery: {
      publish: (match: unknown) => published.push(match),
      publishResult: (result: unknown) => results.push(result),
      state: (state: string) => states.push(state),
    } as unknown as Parameters<typeof subscribeToLive>[3],
  };
}

describe('live updates through Supabase Realtime', () => {
  beforeEach(() => {
    calls.splice(0);
    listeners.clear();
    joinAnswer = 'SUBSCRIBED';
    tokenAnswer = aToken('player-token');
  });

  it('joins the private topic matches with the anon key as its token, set before the join, for a visitor', async () => {
    const { published, states, delivery: callbacks } = delivery();
    const stop = subscribeToLive('https://ref.supabase.co', 'anon-key', null, callbacks);
    await vi.waitFor(() => expect(calls).toContain('subscribe matches'));
    expect(calls).toEqual([
      'client https://ref.supabase.co anon-key',
      'channel matches private=true',
      'setAuth anon-key',
      'subscribe matches',
    ]);
    expect(states).toEqual(['live']);
    listeners.get('matches')!({ payload: { id: 7, status: 'live' } });
    expect(published).toEqual([{ id: 7, status: 'live' }]);
    stop();
    expect(calls.at(-1)).toBe('remove');
  });

  it("carries the matches and the player's own results on ONE connection, with the player's token", async () => {
    const { results, states, delivery: callbacks } = delivery();
    const stop = subscribeToLive('https://ref.supabase.co', 'anon-key', 7, callbacks);
    await vi.waitFor(() => expect(calls).toContain('subscribe user:7'));
    expect(calls).toEqual([
      'client https://ref.supabase.co anon-key',
      'channel matches private=true',
      'GET /api/live/token',
      'setAuth player-token',
      'subscribe matches',
      'channel user:7 private=true',
      'subscribe user:7',
    ]);
    expect(calls.filter((call) => call.startsWith('client'))).toHaveLength(1);
    expect(states).toEqual(['live']);
    listeners.get('user:7')!({ payload: { match_id: 5, outcome: 'won', amount: 3000 } });
    expect(results).toEqual([{ match_id: 5, outcome: 'won', amount: 3000 }]);
    stop();
    expect(calls.filter((call) => call === 'remove')).toHaveLength(2);
  });

  it("asks for the player's token once while it lasts, however often a refused channel is opened again", async () => {
    joinAnswer = 'CHANNEL_ERROR';
    for (let attempt = 0; attempt < 3; attempt++) {
      const { states, delivery: callbacks } = delivery();
      const stop = subscribeToLive('https://ref.supabase.co', 'anon-key', 8, callbacks);
      await vi.waitFor(() => expect(states).toEqual(['refused']));
      stop();
    }
    expect(calls.filter((call) => call === 'GET /api/live/token')).toHaveLength(1);
    expect(calls.filter((call) => call === 'setAuth player-token')).toHaveLength(3);
  });

  it('joins the matches alone with the anon key when no player token can be had', async () => {
    tokenAnswer = async () => Promise.reject(new ApiError(404, 'Realtime is not configured'));
    const { states, delivery: callbacks } = delivery();
    const stop = subscribeToLive('https://ref.supabase.co', 'anon-key', 9, callbacks);
    await vi.waitFor(() => expect(calls).toContain('subscribe matches'));
    expect(calls).toContain('setAuth anon-key');
    expect(calls.some((call) => call.includes('user:9'))).toBe(false);
    expect(states).toEqual(['live']);
    stop();
  });

  it.each(['CHANNEL_ERROR', 'TIMED_OUT', 'CLOSED'])(
    'reports a join answered %s as refused, for the page to poll and try again later',
    async (answer) => {
      joinAnswer = answer;
      const { states, delivery: callbacks } = delivery();
      const stop = subscribeToLive('https://ref.supabase.co', 'anon-key', null, callbacks);
      await vi.waitFor(() => expect(states).toEqual(['refused']));
      stop();
    },
  );

  describe("the player's token", () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('is renewed a minute before it ends, and once the session has ended the results topic is left', async () => {
      tokenAnswer = aToken('token-1');
      const { states, delivery: callbacks } = delivery();
      const stop = subscribeToLive('https://ref.supabase.co', 'anon-key', 11, callbacks);
      await vi.waitFor(() => expect(calls).toContain('subscribe user:11'));
      calls.splice(0);
      tokenAnswer = aToken('token-2');
      await vi.advanceTimersByTimeAsync(239_000); // not yet: a minute before the token ends
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(calls).toEqual(['GET /api/live/token', 'setAuth token-2']);
      calls.splice(0);
      // the session ends (signed out everywhere): the next renewal is refused, the topic is left and the
      // matches go on with the anon key
      tokenAnswer = async () => Promise.reject(new ApiError(401, 'Not authenticated'));
      await vi.advanceTimersByTimeAsync(240_000);
      expect(calls).toEqual(['GET /api/live/token', 'remove', 'setAuth anon-key']);
      await vi.advanceTimersByTimeAsync(600_000);
      expect(calls).toHaveLength(3);
      expect(states).toEqual(['live']);
      stop();
    });

    it('is tried again 15 s later when a renewal fails for another reason', async () => {
      tokenAnswer = aToken('token-1');
      const stop = subscribeToLive('https://ref.supabase.co', 'anon-key', 12, delivery().delivery);
      await vi.waitFor(() => expect(calls).toContain('subscribe user:12'));
      calls.splice(0);
      tokenAnswer = async () => Promise.reject(new ApiError(503, 'Service temporarily unavailable'));
      await vi.advanceTimersByTimeAsync(240_000);
      expect(calls).toEqual(['GET /api/live/token']);
      tokenAnswer = aToken('token-2');
      await vi.advanceTimersByTimeAsync(15_000);
      expect(calls).toEqual(['GET /api/live/token', 'GET /api/live/token', 'setAuth token-2']);
      stop();
    });
  });
});
