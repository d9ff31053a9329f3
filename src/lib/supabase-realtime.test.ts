import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** What the page asked of Supabase Realtime, in order. */
const calls: string[] = [];
let broadcast: ((message: { payload: unknown }) => void) | undefined;
/** What Realtime answers the join with: SUBSCRIBED, or a refusal (CHANNEL_ERROR, TIMED_OUT, CLOSED). */
let joinAnswer = 'SUBSCRIBED';

vi.mock('@supabase/supabase-js', () => ({
  createClient: (url: string, key: string) => {
    calls.push(`client ${url} ${key}`);
    const channel = {
      on: (_type: string, _filter: unknown, listener: typeof broadcast) => ((broadcast = listener), channel),
      subscribe: (status?: (state: string) => void) => (calls.push('subscribe'), status?.(joinAnswer), channel),
    };
    return {
      realtime: { setAuth: async (token: string) => void calls.push(`setAuth ${token}`) },
      channel: (topic: string, options: { config: { private: boolean } }) => (
        calls.push(`channel ${topic} private=${options.config.private}`),
        channel
      ),
      removeChannel: async () => void calls.push('remove'),
    };
  },
}));

const { subscribeToMatches, subscribeToResults } = await import('./supabase-realtime.ts');

describe('live match updates through Supabase Realtime', () => {
  beforeEach(() => {
    calls.splice(0);
    joinAnswer = 'SUBSCRIBED';
  });

  it('joins the private topic matches with the anon key as its token, set before the join', async () => {
    const published: unknown[] = [];
    const states: string[] = [];
    const stop = subscribeToMatches('https://ref.supabase.co', 'anon-key', {
      publish: (match) => published.push(match),
      state: (state) => states.push(state),
    });
    await vi.waitFor(() => expect(calls).toContain('subscribe'));
    expect(calls).toEqual([
      'client https://ref.supabase.co anon-key',
      'channel matches private=true',
      'setAuth anon-key',
      'subscribe',
    ]);
    expect(states).toEqual(['live']);
    broadcast!({ payload: { id: 7, status: 'live' } });
    expect(published).toEqual([{ id: 7, status: 'live' }]);
    stop();
    expect(calls.at(-1)).toBe('remove');
  });

  it.each(['CHANNEL_ERROR', 'TIMED_OUT', 'CLOSED'])(
    'reports a join answered %s as refused, for the page to poll and try again later',
    async (answer) => {
      joinAnswer = answer;
      const states: string[] = [];
      const stop = subscribeToMatches('https://ref.supabase.co', 'anon-key', {
        publish: () => {},
        state: (state) => states.push(state),
      });
      await vi.waitFor(() => expect(states).toEqual(['refused']));
      stop();
    },
  );
});

describe("a player's results through Supabase Realtime", () => {
  /** The answers GET /api/live/token gives, in turn: a token lasting 5 minutes from now, or a status. */
  let answers: Array<number | string>;
  beforeEach(() => {
    calls.splice(0);
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(`GET ${url}`);
        const answer = answers.shift()!;
        if (typeof answer === 'number')
          return new Response(JSON.stringify({ message: 'Not authenticated' }), { status: answer });
        return Response.json({ token: answer, expires_at: new Date(Date.now() + 300_000).toISOString() });
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('renews its 5-minute token before it ends, and leaves the topic once the session has ended', async () => {
    answers = ['token-1', 'token-2', 401];
    subscribeToResults('https://ref.supabase.co', 'anon-key', 7, () => {});
    await vi.waitFor(() => expect(calls).toContain('subscribe'));
    expect(calls).toEqual([
      'client https://ref.supabase.co anon-key',
      'channel user:7 private=true',
      'GET /api/live/token',
      'setAuth token-1',
      'subscribe',
    ]);
    calls.splice(0);
    await vi.advanceTimersByTimeAsync(239_000); // not yet: a minute before the token ends
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual(['GET /api/live/token', 'setAuth token-2']);
    calls.splice(0);
    // the session ends (signed out everywhere): the next renewal is refused and the topic is left
    await vi.advanceTimersByTimeAsync(240_000);
    expect(calls).toEqual(['GET /api/live/token', 'remove']);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(calls).toEqual(['GET /api/live/token', 'remove']);
  });
});
