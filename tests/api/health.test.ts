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

  it('answers 200 after a real query when Postgres is up', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers 503 with database unavailable when Postgres is down', async () => {
    const response = await fetch(`${down.url}/api/health`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ database: 'unavailable' });
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
