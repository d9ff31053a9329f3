import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

describe('GET /api/health', () => {
  let server: TestServer;
  let down: TestServer;

  beforeAll(async () => {
    [server, down] = await Promise.all([
      startServer(),
      // A database nobody listens on: the function must say so, not crash.
      startServer({ databaseUrl: 'postgresql://postgres@127.0.0.1:9/unreachable' }),
    ]);
  });
  afterAll(() => Promise.all([server?.stop(), down?.stop()]));

  it('answers 200 after a real query when Postgres is up, live updates listening', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok', live_updates: 'ok' });
  });

  it('answers 503 naming the parts that are down, with Retry-After, when Postgres is down', async () => {
    const response = await fetch(`${down.url}/api/health`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ status: 'degraded', database: 'unavailable', live_updates: 'unavailable' });
  });

  it('answers every API request 503 "Service temporarily unavailable" with Retry-After while Postgres is down, never 500', async () => {
    const cookie = `session=${'a'.repeat(43)}`; // well-formed, so the request reaches the database
    const requests: [string, string, RequestInit?][] = [
      ['GET', '/api/matches'],
      ['GET', '/api/user', { headers: { cookie } }],
      [
        'POST',
        '/api/login',
        {
          body: JSON.stringify({ username: 'someone', password: 'secret-123' }),
          headers: { 'content-type': 'application/json' },
        },
      ],
      [
        'POST',
        '/api/bets',
        {
          body: JSON.stringify({ match_id: 1, team_id: 1, amount: 1000 }),
          headers: { cookie, 'content-type': 'application/json' },
        },
      ],
    ];
    for (const [method, path, init] of requests) {
      const response = await fetch(`${down.url}${path}`, { method, ...init });
      expect({ path, status: response.status, retryAfter: response.headers.get('retry-after') }).toEqual({
        path,
        status: 503,
        retryAfter: '5',
      });
      expect(await response.json()).toEqual({ message: 'Service temporarily unavailable' });
    }
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const response = await fetch(`${server.url}/api/no-such-route`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ message: 'Not found' });
  });

  it('sends security headers', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
