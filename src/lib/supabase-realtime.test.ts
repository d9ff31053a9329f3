import { beforeEach, describe, expect, it, vi } from 'vitest';

/** What the page asked of Supabase Realtime, in order. */
const calls: string[] = [];
let broadcast: ((message: { payload: unknown }) => void) | undefined;

vi.mock('@supabase/supabase-js', () => ({
  createClient: (url: string, key: string) => {
    calls.push(`client ${url} ${key}`);
    const channel = {
      on: (_type: string, _filter: unknown, listener: typeof broadcast) => ((broadcast = listener), channel),
      subscribe: (status: (state: string) => void) => (calls.push('subscribe'), status('SUBSCRIBED'), channel),
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

const { subscribeToMatches } = await import('./supabase-realtime.ts');

describe('live match updates through Supabase Realtime', () => {
  beforeEach(() => void calls.splice(0));

  it('joins the private topic matches with the anon key as its token, set before the join', async () => {
    const published: unknown[] = [];
    const stop = subscribeToMatches('https://ref.supabase.co', 'anon-key', (match) => published.push(match));
    await vi.waitFor(() => expect(calls).toContain('subscribe'));
    expect(calls).toEqual([
      'client https://ref.supabase.co anon-key',
      'channel matches private=true',
      'setAuth anon-key',
      'subscribe',
    ]);
    broadcast!({ payload: { id: 7, status: 'live' } });
    expect(published).toEqual([{ id: 7, status: 'live' }]);
    stop();
    expect(calls.at(-1)).toBe('remove');
  });
});
