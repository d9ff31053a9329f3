/**
 * Rate limits key on the client's IP. A server reached directly (the local runtime) must not believe
 * X-Forwarded-For, or a client could dodge the per-IP limit by inventing addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, database, startServer, unique, type TestServer } from '../support/api.ts';

describe('client IP for rate limits without a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: 'false' } });
    // every attempt here comes from the loopback address: start its registration limit from zero
    const db = database();
    await db`delete from app.login_attempts where action = 'register' and ip = '127.0.0.1'`;
    await db.end();
  });
  afterAll(() => server?.stop());

  it('does not believe X-Forwarded-Proto for the cookie\'s Secure flag', async () => {
    const username = unique('proto');
    const answer = await new Client(server.url).post('/api/register',
      { name: 'Plain Http', username, email: `${username}@example.com`, password: 'secret-123' },
      { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('set-cookie')).not.toContain('Secure');
  });

  it('counts registrations by the connection address, whatever X-Forwarded-For says', async () => {
    const taken = unique('taken');
    const first = await new Client(server.url).post('/api/register', { name: 'Taken', username: taken, email: `${taken}@example.com`, password: 'secret-123' });
    expect(first.status).toBe(201);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      // every attempt claims another address and is refused (duplicate username): a failed registration
      const answer = await new Client(server.url).post('/api/register', { name: 'Again', username: taken, email: `${unique('e')}@example.com`, password: 'secret-123' });
      statuses.push(answer.status);
    }
    // With X-Forwarded-For believed, no two attempts would share an address and none would be limited.
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThan(0);
    expect(statuses.slice(0, limited).every((status) => status === 409)).toBe(true);
  });
});
