import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiSuite, Client, createAdmin, newPhone, randomIp, registerPlayer, unique } from '../support/api.ts';

describe('authentication: /api/register, /api/login, /api/user, /api/logout', () => {
  const api = apiSuite();

  it('answers GET /api/user with 401 Not authenticated when signed out', async () => {
    const answer = await new Client(api.server.url).get('/api/user');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: 'Not authenticated' });
  });

  it('registers a player, signs them in with an HttpOnly cookie and stores only hashes', async () => {
    const client = new Client(api.server.url);
    const username = unique('reg');
    const phone = newPhone();
    const answer = await client.post('/api/register', {
      name: 'Rahul Sharma',
      username,
      email: `${username}@Example.com`,
      password: 'secret1',
      phone,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      username,
      name: 'Rahul Sharma',
      role: 'user',
      status: 'active',
      wallet_balance: 0,
      phone,
    });
    expect(answer.body).not.toHaveProperty('password');
    expect(answer.body).not.toHaveProperty('password_hash');
    expect(answer.body.referral_code).toMatch(/^[A-Z0-9]{8}$/);

    const cookie = answer.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure'); // plain http here

    const token = client.cookie!.split('=')[1];
    const [session] = await api.db`select token_hash, expires_at from app.sessions where user_id = ${answer.body.id}`;
    expect(session.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const days = (new Date(session.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const [credentials] = await api.db`select password_hash from app.credentials where user_id = ${answer.body.id}`;
    expect(credentials.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);

    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toEqual(answer.body);
  });

  it('ignores role and status sent with a registration', async () => {
    const player = await registerPlayer(api.server, { role: 'admin', status: 'banned', wallet_balance: 99999 });
    const [row] = await api.db`select role, status, wallet_balance from public.users where id = ${player.id}`;
    expect(row).toEqual({ role: 'user', status: 'active', wallet_balance: 0 });
    expect((await player.client.get('/api/admin/users')).status).toBe(403);
  });

  it.each([
    [{ name: 'A' }, 'Name must be at least 2 characters'],
    [{ username: 'ab' }, 'Username must be at least 3 characters'],
    [{ email: 'not-an-email' }, 'Please enter a valid email'],
    [{ password: '12345' }, 'Password must be at least 6 characters'],
  ])('refuses registration %j with 400 "%s"', async (override, message) => {
    const username = unique('bad');
    const answer = await new Client(api.server.url).post('/api/register', {
      name: 'Valid Name',
      username,
      email: `${username}@example.com`,
      password: 'secret1',
      ...override,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
  });

  it('refuses a taken username (any case) and a taken email with 409', async () => {
    const player = await registerPlayer(api.server);
    const again = await new Client(api.server.url).post('/api/register', {
      name: 'Someone',
      username: player.username.toUpperCase(),
      email: `${unique('x')}@example.com`,
      password: 'secret1',
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Username already exists' });
    const email = await new Client(api.server.url).post('/api/register', {
      name: 'Someone',
      username: unique('y'),
      email: `${player.username}@example.com`,
      password: 'secret1',
    });
    expect(email.status).toBe(409);
    expect(email.body).toEqual({ message: 'Email already registered' });
  });

  it('links a referral code to the referrer and refuses an unknown one', async () => {
    const referrer = await registerPlayer(api.server);
    const [{ referral_code }] = await api.db`select referral_code from public.users where id = ${referrer.id}`;
    const referred = await registerPlayer(api.server, { referral_code });
    const [row] = await api.db`select referred_by from public.users where id = ${referred.id}`;
    expect(row.referred_by).toBe(referrer.id);
    const username = unique('ref');
    const bad = await new Client(api.server.url).post('/api/register', {
      name: 'Someone',
      username,
      email: `${username}@example.com`,
      password: 'secret1',
      referral_code: 'NOPE1234',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'Invalid referral code' });
  });

  it('signs in with the right password (username case-insensitive) and refuses a wrong one with 401', async () => {
    const player = await registerPlayer(api.server);
    const client = new Client(api.server.url);
    const ok = await client.post('/api/login', { username: player.username.toUpperCase(), password: player.password });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: player.id, username: player.username });
    expect((await client.get('/api/user')).status).toBe(200);

    const wrong = await new Client(api.server.url).post('/api/login', {
      username: player.username,
      password: 'wrong-password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid username or password' });
    const unknown = await new Client(api.server.url).post('/api/login', {
      username: unique('ghost'),
      password: 'whatever1',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'Invalid username or password' });
  });

  it.each([
    [{ username: 'ab', password: 'secret1' }, 'Username must be at least 3 characters'],
    [{ username: 'abc', password: '12345' }, 'Password must be at least 6 characters'],
  ])('refuses login %j with 400 "%s"', async (body, message) => {
    const answer = await new Client(api.server.url).post('/api/login', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
  });

  it('logs out: the session row is deleted and the cookie no longer works', async () => {
    const player = await registerPlayer(api.server);
    const saved = player.client.cookie;
    const answer = await player.client.post('/api/logout');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('set-cookie')).toMatch(/^session=;/);
    const [{ count }] = await api.db`select count(*)::int as count from app.sessions where user_id = ${player.id}`;
    expect(count).toBe(0);
    const replay = new Client(api.server.url);
    replay.cookie = saved;
    expect((await replay.get('/api/user')).status).toBe(401);
  });

  it('refuses a banned user at login with 403 and ends their sessions; a suspended user may sign in', async () => {
    const admin = await createAdmin(api.server, api.db);
    const banned = await registerPlayer(api.server);
    expect((await admin.client.patch(`/api/admin/users/${banned.id}/status`, { status: 'banned' })).status).toBe(200);
    expect((await banned.client.get('/api/user')).status).toBe(401);
    const login = await new Client(api.server.url).post('/api/login', {
      username: banned.username,
      password: banned.password,
    });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ message: 'Your account is banned' });

    const suspended = await registerPlayer(api.server);
    await admin.client.patch(`/api/admin/users/${suspended.id}/status`, { status: 'suspended' });
    const again = await new Client(api.server.url).post('/api/login', {
      username: suspended.username,
      password: suspended.password,
    });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('suspended');
  });

  it("rate-limits failed logins per username and address: an attacker's address does not lock the player's own out", async () => {
    const player = await registerPlayer(api.server);
    const attacker = new Client(api.server.url, randomIp());
    for (let i = 0; i < 10; i++) {
      const attempt = await attacker.post('/api/login', { username: player.username, password: 'wrong-pass' });
      expect(attempt.status).toBe(401);
    }
    const blocked = await attacker.post('/api/login', { username: player.username, password: player.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ message: 'Too many attempts. Please try again in a few minutes.' });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    const own = await new Client(api.server.url, player.client.ip).post('/api/login', {
      username: player.username,
      password: player.password,
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: player.id, username: player.username });
    // the player's sign-in clears nothing for the attacker's address
    expect((await attacker.post('/api/login', { username: player.username, password: 'wrong-pass' })).status).toBe(429);
  });

  it('counts what happened: 40 simultaneous right sign-ins from one address all succeed', async () => {
    const ip = randomIp();
    const player = await registerPlayer(api.server);
    const others = await Promise.all(Array.from({ length: 39 }, () => registerPlayer(api.server)));
    // one player's 40 browsers at once (the pair limit is 10), then 40 players behind one address at once
    // (the address limit is 30): attempts still running count as nothing
    const samePlayer = await Promise.all(
      Array.from({ length: 40 }, () =>
        new Client(api.server.url, ip).post('/api/login', { username: player.username, password: player.password }),
      ),
    );
    expect(samePlayer.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    const samePlace = await Promise.all(
      [player, ...others].map((someone) =>
        new Client(api.server.url, ip).post('/api/login', { username: someone.username, password: someone.password }),
      ),
    );
    expect(samePlace.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    // 120 password hashes (40 registrations, 80 sign-ins) at once: minutes on a loaded 2-core machine
  }, 180_000);

  it('tells at most 10 outcomes of parallel wrong guesses, and Retry-After is the real wait', async () => {
    const player = await registerPlayer(api.server);
    const attacker = randomIp();
    const guess = (password: string) =>
      new Client(api.server.url, attacker).post('/api/login', { username: player.username, password });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => guess(`wrong-${index}`)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(10).fill(429)]);
    // the right password after them is refused as well: it reveals nothing
    const right = await guess(player.password);
    expect(right.status).toBe(429);
    expect(right.body).toEqual({ message: 'Too many attempts. Please try again in a few minutes.' });
    // Retry-After: when the first failure leaves the 15 minutes, counted from the refusal
    const [{ at }] =
      await api.db`select min(created_at) as at from app.login_attempts where action = 'login' and username = ${player.username}`;
    const allowedAt = (at as Date).getTime() + 15 * 60_000;
    for (const refused of [...answers.filter((answer) => answer.status === 429), right]) {
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((allowedAt - Date.now()) / 1000));
      expect(retryAfter).toBeLessThanOrEqual(Math.ceil((allowedAt - started) / 1000));
    }
    expect(
      (
        await api.db`select count(*)::int as n from app.login_attempts where action = 'login' and username = ${player.username}`
      )[0].n,
    ).toBe(10);
  });

  it('does not count successful registrations against the per-IP limit; 10 failed ones in 15 minutes are a 429', async () => {
    const ip = randomIp();
    const register = (username: string) =>
      new Client(api.server.url, ip).post('/api/register', {
        name: 'Shared Network',
        username,
        email: `${unique('rl')}@example.com`,
        password: 'secret1',
      });
    const taken = unique('rl');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await register(unique('rl'))).status);
    for (let i = 0; i < 12; i++) statuses.push((await register(taken)).status);
    // twelve sign-ups behind one address (a NAT), `taken` once, then ten refusals (409); the eleventh is a 429
    expect(statuses).toEqual([...Array(13).fill(201), ...Array(10).fill(409), 429]);
    const refused = await register(unique('rl'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
