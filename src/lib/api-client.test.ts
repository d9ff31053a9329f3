import { describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api-client.ts';

function answer(status: number, body: string, statusText = '') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body || null, { status, statusText })),
  );
}

describe('api client', () => {
  it("raises '{status}: {message}' from a JSON error", async () => {
    answer(409, JSON.stringify({ message: 'Insufficient balance' }));
    await expect(api.post('/api/bets', {})).rejects.toThrow('409: Insufficient balance');
  });

  it('falls back to the response text, then to the status text', async () => {
    answer(502, 'Bad gateway from proxy');
    await expect(api.get('/api/matches')).rejects.toThrow('502: Bad gateway from proxy');
    answer(500, '', 'Internal Server Error');
    await expect(api.get('/api/matches')).rejects.toThrow('500: Internal Server Error');
  });

  it('yields null on 401 for the current-user lookup only', async () => {
    answer(401, JSON.stringify({ message: 'Not signed in' }));
    await expect(api.getOrNull('/api/user')).resolves.toBeNull();
    await expect(api.get('/api/bets')).rejects.toBeInstanceOf(ApiError);
  });

  it('sends cookies and a JSON content type with a body', async () => {
    const fetchMock = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.post('/api/login', { username: 'a' })).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/login',
      expect.objectContaining({
        method: 'POST',
        credentials: 'include',
        body: '{"username":"a"}',
        headers: expect.objectContaining({ 'Content-Type': 'application/json' }),
      }),
    );
  });
});

describe('money writes', () => {
  /** Answers each call in turn: a status (with Retry-After: 0 on a 504, so the test waits for nothing), or a network error. */
  function answers(...script: (number | 'network error')[]) {
    const fetchMock = vi.fn(async () => {
      const next = script.shift();
      if (next === 'network error' || next === undefined) throw new TypeError('Failed to fetch');
      const body = next < 300 ? { id: 7 } : { message: next === 504 ? 'We could not confirm' : 'Refused' };
      return new Response(JSON.stringify(body), { status: next, headers: next === 504 ? { 'Retry-After': '0' } : {} });
    });
    vi.stubGlobal('fetch', fetchMock);
    const keys = () =>
      fetchMock.mock.calls.map((call) =>
        new Headers((call as unknown as [string, RequestInit])[1].headers).get('Idempotency-Key'),
      );
    return { fetchMock, keys };
  }

  it('carry an Idempotency-Key, a new one for each call', async () => {
    const { keys } = answers(201, 201);
    await api.post('/api/bets', { amount: 1000 });
    await api.patch('/api/admin/transactions/3/approve');
    expect(keys()).toHaveLength(2);
    expect(keys()[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys()[1]).not.toBe(keys()[0]);
  });

  it('are sent again with the same key when the outcome is unknown, and answer the stored result', async () => {
    const { keys } = answers(504, 201);
    await expect(api.post('/api/bets', { amount: 1000 })).resolves.toEqual({ id: 7 });
    expect(keys()).toHaveLength(2);
    expect(keys()[1]).toBe(keys()[0]);
  });

  it('keep trying after a 503 once the outcome is unknown, and answer a refusal when that is what happened', async () => {
    const { keys } = answers(504, 503, 409);
    await expect(api.post('/api/wallet/withdraw', { amount: 500 })).rejects.toThrow('409: Refused');
    expect(new Set(keys())).toHaveProperty('size', 1);
    expect(keys()).toHaveLength(3);
  });

  it('are sent again after a network error too', async () => {
    const { keys } = answers('network error', 201);
    await expect(api.post('/api/wallet/deposit', { amount: 500 })).resolves.toEqual({ id: 7 });
    expect(keys()[1]).toBe(keys()[0]);
  });

  it('are not sent again after a 503 first: nothing was written', async () => {
    const { keys } = answers(503);
    await expect(api.post('/api/bets', { amount: 1000 })).rejects.toThrow('503: Refused');
    expect(keys()).toHaveLength(1);
  });

  it('say so when the outcome stays unknown', async () => {
    const { keys } = answers(504, 504, 504, 504, 504, 201);
    await expect(api.patch('/api/admin/matches/4/declare-winner', {})).rejects.toThrow('504: We could not confirm');
    expect(keys()).toHaveLength(5);
  });

  it('other writes are sent once, without a key', async () => {
    const { keys } = answers(504);
    await expect(api.post('/api/login', {})).rejects.toThrow('504: We could not confirm');
    await expect(api.post('/api/bank-accounts', {})).rejects.toThrow();
    expect(keys()).toEqual([null, null]);
  });
});
