import { describe, expect, it } from 'vitest';
import { apiSuite, Client, createAdmin, createMatch, fund, registerPlayer } from '../support/api.ts';

describe('request hygiene: CSRF origin, body limits, malformed input, headers, error shape', () => {
  const api = apiSuite();

  it('refuses a write from a foreign Origin with 403 and moves no money; the own origin passes', async () => {
    const admin = await createAdmin(api.server, api.db);
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const match = await createMatch(admin);
    const body = { match_id: match.id, team_id: 1, amount: 1000 };
    const forged = await player.client.post('/api/bets', body, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ message: 'Cross-origin request refused' });
    const [{ count }] = await api.db`select count(*)::int as count from public.bets where user_id = ${player.id}`;
    expect(count).toBe(0);
    const own = await player.client.post('/api/bets', body, { origin: api.server.url });
    expect(own.status).toBe(201);
    // reads are not writes
    expect((await player.client.get('/api/bets', { origin: 'https://evil.example' })).status).toBe(200);
  });

  it("behind a static host that rewrites /api, takes the browser's word (Sec-Fetch-Site) that the page is the site's own", async () => {
    const admin = await createAdmin(api.server, api.db);
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 3000);
    const match = await createMatch(admin);
    const body = { match_id: match.id, team_id: 1, amount: 1000 };
    // what Chromium sends from a page of https://cricket.example whose /api the host forwards to this server
    const hosted = { origin: 'https://cricket.example', 'sec-fetch-site': 'same-origin' };
    expect((await player.client.post('/api/bets', body, hosted)).status).toBe(201);
    for (const site of ['cross-site', 'same-site']) {
      const refused = await player.client.post('/api/bets', body, {
        origin: 'https://evil.example',
        'sec-fetch-site': site,
      });
      expect([site, refused.status, refused.body]).toEqual([site, 403, { message: 'Cross-origin request refused' }]);
    }
    // a page elsewhere cannot claim our origin past the browser's own verdict
    expect(
      (await player.client.post('/api/bets', body, { origin: api.server.url, 'sec-fetch-site': 'cross-site' })).status,
    ).toBe(403);
    const [{ count }] = await api.db`select count(*)::int as count from public.bets where user_id = ${player.id}`;
    expect(count).toBe(1);
  });

  it('answers 413 for a body over 64 KiB', async () => {
    const answer = await new Client(api.server.url).post('/api/login', {
      username: 'x'.repeat(70 * 1024),
      password: 'secret1',
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: 'Request body too large' });
  });

  it('answers 400 Malformed JSON body, 415 for a non-JSON body, 400 for a non-object', async () => {
    const player = await registerPlayer(api.server);
    const malformed = await player.client.post('/api/bets', '{"match_id": 1,', { 'content-type': 'application/json' });
    expect([malformed.status, malformed.body]).toEqual([400, { message: 'Malformed JSON body' }]);
    const text = await player.client.post('/api/bets', 'match_id=1', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body).toHaveProperty('message');
    const array = await player.client.post('/api/bets', '[]', { 'content-type': 'application/json' });
    expect(array.status).toBe(400);
    const nothing = await player.client.post('/api/login', undefined);
    expect(nothing.status).toBe(400);
  });

  it('never answers 500 for hostile input', async () => {
    const player = await registerPlayer(api.server);
    const probes: [string, string, unknown][] = [
      ['GET', '/api/matches/abc', undefined],
      ['GET', '/api/matches/-1', undefined],
      ['GET', '/api/matches/99999999999999999999', undefined],
      ['GET', "/api/matches?status=live'--", undefined],
      ['POST', '/api/bets', { match_id: '1; drop table bets', team_id: 1, amount: 1000 }],
      ['POST', '/api/bets', { match_id: 1, team_id: 1, amount: 1e308 }],
      ['POST', '/api/bets', { match_id: 1, team_id: 1, amount: 1000.5 }],
      ['POST', '/api/wallet/deposit', { amount: 'lots', paymentMethod: 'upi', reference: 'REF-1-AAAA' }],
      ['POST', '/api/wallet/withdraw', { amount: 500, bankAccountId: 9e18 }],
      ['POST', '/api/bank-accounts', { account_holder: null, account_number: [], ifsc_code: {}, bank_name: 1 }],
      ['GET', '/api/wallet/transactions?userId=abc', undefined],
    ];
    for (const [method, path, body] of probes) {
      const answer = await player.client.call(method, path, body);
      expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${path}`).toBeLessThan(500);
      expect(Object.keys(answer.body)).toEqual(['message']);
      expect(answer.text).not.toMatch(/\bat \S+\.ts|from public\.|postgres|syntax error/i);
    }
  });

  it('sends security headers on API answers', async () => {
    const answer = await new Client(api.server.url).get('/api/user');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('publishes an OpenAPI document generated from the schemas', async () => {
    const doc = await new Client(api.server.url).get('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    const register = doc.body.paths['/api/register'].post.requestBody.content['application/json'].schema;
    expect(register.properties).toHaveProperty('username');
    expect(register.properties).not.toHaveProperty('role');
    expect(
      doc.body.paths['/api/wallet/deposit'].post.responses['201'].content['application/json'].schema.properties,
    ).toHaveProperty('redirect_url');
  });
});
