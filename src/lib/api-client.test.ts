import { describe, expect, it, vi } from 'vitest';
import { answer, answerOrNull, answerPage, ApiError, client } from './api-client.ts';

const bet = { match_id: 1, team_id: 2, amount: 1000 };
const withdrawal = { amount: 500, bankAccountId: 1 };
const deposit = { amount: 500, paymentMethod: 'upi' as const, reference: 'REF-1-ABCD' };
const login = { username: 'a', password: 'b' };
const onMatch = (id: number) => ({ params: { path: { id } } });

function answerWith(status: number, body: string, statusText = '') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body || null, { status, statusText })),
  );
}

describe('api client', () => {
  it("raises '{status}: {message}' from a JSON error", async () => {
    answerWith(409, JSON.stringify({ message: 'Insufficient balance' }));
    await expect(answer(client.POST('/api/bets', { body: bet }))).rejects.toThrow('409: Insufficient balance');
  });

  it('falls back to the response text, then to the status text', async () => {
    answerWith(502, 'Bad gateway from proxy');
    await expect(answer(client.GET('/api/matches'))).rejects.toThrow('502: Bad gateway from proxy');
    answerWith(500, '', 'Internal Server Error');
    await expect(answer(client.GET('/api/matches'))).rejects.toThrow('500: Internal Server Error');
  });

  it('yields null on 401 for the current-user lookup only', async () => {
    answerWith(401, JSON.stringify({ message: 'Not signed in' }));
    await expect(answerOrNull(client.GET('/api/user'))).resolves.toBeNull();
    await expect(answer(client.GET('/api/bets'))).rejects.toBeInstanceOf(ApiError);
  });

  it('sends cookies and a JSON content type with a body', async () => {
    const fetchMock = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(answer(client.POST('/api/login', { body: login }))).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledWith(
      `${location.origin}/api/login`,
      expect.objectContaining({
        method: 'POST',
        credentials: 'include',
        body: '{"username":"a","password":"b"}',
        headers: expect.objectContaining({ 'Content-Type': 'application/json' }),
      }),
    );
  });
});

describe('lists', () => {
  it('read the rows, the next cursor of the Link header and the counts', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('[{"id":9}]', {
            status: 200,
            headers: { Link: '</api/bets?limit=1&cursor=OQ>; rel="next"', 'X-Total-Count': '4' },
          }),
      ),
    );
    await expect(answerPage(client.GET('/api/bets', { params: { query: { limit: 1 } } }))).resolves.toEqual({
      items: [{ id: 9 }],
      cursor: 'OQ',
      total: 4,
      stake: null,
    });
  });

  it('end where no Link names a next page', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('[]', { status: 200 })),
    );
    await expect(answerPage(client.GET('/api/bets'))).resolves.toMatchObject({ items: [], cursor: null, total: null });
  });
});

describe('files', () => {
  it('come as a Blob, and their refusals as ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('a,b\n1,2\n', { status: 200 })),
    );
    const range = { params: { query: { from: '2026-01-01', to: '2026-01-31' } }, parseAs: 'blob' as const };
    const blob = await answer(client.GET('/api/wallet/statement.csv', range));
    await expect(blob.text()).resolves.toBe('a,b\n1,2\n');
    answerWith(401, JSON.stringify({ message: 'Not signed in' }));
    await expect(client.GET('/api/wallet/statement.csv', range)).rejects.toThrow('401: Not signed in');
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
    await client.POST('/api/bets', { body: bet });
    await client.PATCH('/api/admin/transactions/{id}/approve', onMatch(3));
    expect(keys()).toHaveLength(2);
    expect(keys()[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys()[1]).not.toBe(keys()[0]);
  });

  it('are sent again with the same key when the outcome is unknown, and answer the stored result', async () => {
    const { keys } = answers(504, 201);
    await expect(answer(client.POST('/api/bets', { body: bet }))).resolves.toEqual({ id: 7 });
    expect(keys()).toHaveLength(2);
    expect(keys()[1]).toBe(keys()[0]);
  });

  it('keep trying after a 503 once the outcome is unknown, and answer a refusal when that is what happened', async () => {
    const { keys } = answers(504, 503, 409);
    await expect(client.POST('/api/wallet/withdraw', { body: withdrawal })).rejects.toThrow('409: Refused');
    expect(new Set(keys())).toHaveProperty('size', 1);
    expect(keys()).toHaveLength(3);
  });

  it('are sent again after a network error too', async () => {
    const { keys } = answers('network error', 201);
    await expect(answer(client.POST('/api/wallet/deposit', { body: deposit }))).resolves.toEqual({ id: 7 });
    expect(keys()[1]).toBe(keys()[0]);
  });

  it('are not sent again after a 503 first: nothing was written', async () => {
    const { keys } = answers(503);
    await expect(client.POST('/api/bets', { body: bet })).rejects.toThrow('503: Refused');
    expect(keys()).toHaveLength(1);
  });

  it('say so when the outcome stays unknown', async () => {
    const { keys } = answers(504, 504, 504, 504, 504, 201);
    await expect(
      client.PATCH('/api/admin/matches/{id}/declare-winner', { ...onMatch(4), body: { winning_team_id: 1 } }),
    ).rejects.toThrow('504: We could not confirm');
    expect(keys()).toHaveLength(5);
  });

  it('other writes are sent once, without a key', async () => {
    const { keys } = answers(504);
    await expect(client.POST('/api/login', { body: login })).rejects.toThrow('504: We could not confirm');
    await expect(
      client.POST('/api/bank-accounts', {
        body: { account_holder: 'A', account_number: '1234', ifsc_code: 'HDFC0001234', bank_name: 'B' },
      }),
    ).rejects.toThrow();
    expect(keys()).toEqual([null, null]);
  });
});
