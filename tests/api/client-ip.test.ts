/**
 * Rate limits key on the client's IP. A server reached directly (the local runtime) must not believe
 * X-Forwarded-For, or a client could dodge the per-IP limit by inventing addresses; behind TRUST_PROXY_HOPS
 * proxies the address the farthest proxy appended is the client's, whatever the client put left of it, and
 * only for a request the proxy forwarded: one that shows PROXY_SECRET (X-Proxy-Secret). The cookie's Secure flag
 * takes X-Forwarded-Proto only from a trusted proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  database,
  registerPlayer,
  startServer,
  unique,
  type TestServer,
  apiSuite,
  randomIp,
} from '../support/api.ts';
import { TEST_PROXY_SECRET } from '../support/server.ts';

/**
 * The address the server recorded for a new player's session (the one its rate limits use), for a request
 * with this X-Forwarded-For and, unless `proxySecret` says otherwise, the proxy's secret.
 */
async function recordedIp(server: TestServer, forwardedFor: string, proxySecret = TEST_PROXY_SECRET): Promise<string> {
  const player = await registerPlayer(server);
  player.client.viaProxy = false;
  const sessions = await player.client.get('/api/account/sessions', {
    'x-forwarded-for': forwardedFor,
    ...(proxySecret ? { 'x-proxy-secret': proxySecret } : {}),
  });
  expect(sessions.status).toBe(200);
  return sessions.body.find((session: { current: boolean }) => session.current).ip;
}

describe("client IP behind TRUST_PROXY_HOPS=2 (a static host rewriting /api, then the function's edge)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY_HOPS: '2' } });
  });
  afterAll(() => server?.stop());

  it('is the entry the farther proxy appended, whatever the client wrote before it', async () => {
    // client-invented entry, the client as the static host saw it, the static host as the edge saw it
    expect(await recordedIp(server, '198.51.100.9, 203.0.113.5, 10.0.0.2')).toBe('203.0.113.5');
    expect(await recordedIp(server, '203.0.113.6, 10.0.0.2')).toBe('203.0.113.6');
    // fewer entries than proxies: the left-most, which a proxy wrote
    expect(await recordedIp(server, '203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the connection for a caller who reaches the function directly, whatever X-Forwarded-For it writes', async () => {
    expect(await recordedIp(server, '198.51.100.9, 203.0.113.5, 10.0.0.2', '')).toBe('127.0.0.1');
    expect(await recordedIp(server, '198.51.100.9, 203.0.113.5, 10.0.0.2', 'a-guessed-secret')).toBe('127.0.0.1');
  });

  it('so a direct caller cannot dodge the per-address sign-in limit by writing a new address each time', async () => {
    const db = database();
    await db`delete from app.login_attempts where ip = '127.0.0.1'`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++) {
      const direct = new Client(server.url);
      direct.viaProxy = false;
      const answer = await direct.post(
        '/api/login',
        { username: unique('nobody'), password: 'guess-123' },
        { 'x-forwarded-for': `203.0.113.${attempt + 1}, 10.0.0.2` },
      );
      statuses.push(answer.status);
    }
    await db`delete from app.login_attempts where ip = '127.0.0.1'`;
    await db.end();
    // 30 failures from one address refuse it: every attempt came from the connection's address
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('client IP with the older TRUST_PROXY=true', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY_HOPS: '', TRUST_PROXY: 'true' } });
  });
  afterAll(() => server?.stop());

  it('is the right-most entry: one proxy', async () => {
    expect(await recordedIp(server, '198.51.100.9, 203.0.113.8')).toBe('203.0.113.8');
  });
});

describe('client IP for rate limits without a trusted proxy (TRUST_PROXY_HOPS=0)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY_HOPS: '0' } });
    // every attempt here comes from the loopback address: start its registration limit from zero
    const db = database();
    await db`delete from app.login_attempts where action = 'register' and ip = '127.0.0.1'`;
    await db.end();
  });
  afterAll(() => server?.stop());

  it("is the connection's address, whatever X-Forwarded-For says", async () => {
    expect(await recordedIp(server, '203.0.113.9')).toBe('127.0.0.1');
  });

  it("does not believe X-Forwarded-Proto for the cookie's Secure flag", async () => {
    const username = unique('proto');
    const answer = await new Client(server.url).post(
      '/api/register',
      { name: 'Plain Http', username, email: `${username}@example.com`, password: 'secret-123' },
      { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' },
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get('set-cookie')).not.toContain('Secure');
  });

  it('counts registrations by the connection address, whatever X-Forwarded-For says', async () => {
    const taken = unique('taken');
    const first = await new Client(server.url).post('/api/register', {
      name: 'Taken',
      username: taken,
      email: `${taken}@example.com`,
      password: 'secret-123',
    });
    expect(first.status).toBe(201);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      // every attempt claims another address and is refused (duplicate username): a failed registration
      const answer = await new Client(server.url).post('/api/register', {
        name: 'Again',
        username: taken,
        email: `${unique('e')}@example.com`,
        password: 'secret-123',
      });
      statuses.push(answer.status);
    }
    // With X-Forwarded-For believed, no two attempts would share an address and none would be limited.
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThan(0);
    expect(statuses.slice(0, limited).every((status) => status === 409)).toBe(true);
  });
});

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it("takes the right-most X-Forwarded-For entry (the proxy's), not the client-controlled left ones", async () => {
    const taken = await registerPlayer(api.server);
    const proxySeen = randomIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const answer = await new Client(api.server.url, `${randomIp()}, ${proxySeen}`).post('/api/register', {
        name: 'Again',
        username: taken.username,
        email: `${unique('e')}@example.com`,
        password: 'secret-123',
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(10).fill(409), 429]);
  });

  it('sets Secure on the cookie when the trusted proxy says X-Forwarded-Proto: https', async () => {
    const username = unique('sec');
    const answer = await new Client(api.server.url).post(
      '/api/register',
      { name: 'Secure Cookie', username, email: `${username}@example.com`, password: 'secret-123' },
      { 'x-forwarded-proto': 'https' },
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get('set-cookie')).toContain('Secure');
  });
});
