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
