/**
 * Registration, sign-in and sign-out (edge-functions/api/routes/auth.ts: /api/register, /api/login, /api/logout,
 * /api/logout-all) over HTTP: what a registration stores and refuses (reserved staff names, look-alike usernames, a
 * phone number or a person already excluded), sessions and their cookies, and the sign-in and registration limits
 * under parallel requests, none of which can lock a player out. The rules' boundaries are pgTAP's
 * (supabase/tests/10a-identity, 10b-one-person, 13a-rate-limits); races are in tests/db/concurrency.test.ts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  apiSuite,
  anotherBrowser,
  Client,
  createAdmin,
  newPhone,
  randomIp,
  registerPlayer,
  unique,
  balance,
  fund,
  newBankAccount,
  sendWebhook,
  transactionCount,
} from '../support/api.ts';

const TOO_MANY = { message: 'Too many attempts. Please try again in a few minutes.' };

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('authentication: /api/register, /api/login, /api/logout, /api/logout-all', () => {
  const api = apiSuite();

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

  it('signs out everywhere, this session included', async () => {
    const player = await registerPlayer(api.server);
    const second = await anotherBrowser(api.server, player);
    const answer = await player.client.post('/api/logout-all');
    expect(answer.status).toBe(200);
    expect(player.client.cookie).toBeNull();
    expect((await second.get('/api/user')).status).toBe(401);
    const [{ count }] = await api.db`select count(*)::int from app.sessions where user_id = ${player.id}`;
    expect(count).toBe(0);
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

describe('account security', () => {
  const api = apiSuite();

  describe('admin creation never captures an account', () => {
    it('refuses the names players would take for staff at registration, in any case', async () => {
      for (const username of [
        'admin',
        'Administrator',
        'ROOT',
        'support',
        'system',
        'operator',
        'staff',
        'moderator',
        'admin_help',
        'AdminTeam',
      ]) {
        const answer = await new Client(api.server.url).post('/api/register', {
          name: 'Not Staff',
          username,
          email: `${unique('r')}@example.com`,
          password: 'secret-123',
        });
        expect(answer.status, username).toBe(400);
        expect(answer.body).toEqual({ message: 'This username is not available' });
      }
      const [{ count }] = await api.db`select count(*)::int from public.users where name = 'Not Staff'`;
      expect(count).toBe(0);
      expect((await registerPlayer(api.server, { username: `ops${unique('a')}` })).id).toBeGreaterThan(0);
    });
  });

  describe('sessions follow the account', () => {
    it("gives an admin's session 30 minutes without use and a player's 7 days, both at most 30 days", async () => {
      const admin = await createAdmin(api.server, api.db);
      const player = await registerPlayer(api.server);
      const ends = await api.db`select u.role, extract(epoch from s.expires_at - s.last_seen_at)::int as idle,
                                   extract(epoch from s.created_at + interval '30 days' - s.created_at)::int as lifetime
                            from app.sessions s join public.users u on u.id = s.user_id
                            where s.user_id in (${admin.id}, ${player.id}) order by u.role`;
      expect(ends).toEqual([
        { role: 'admin', idle: 30 * 60, lifetime: 30 * 86_400 },
        { role: 'user', idle: 7 * 86_400, lifetime: 30 * 86_400 },
      ]);
      // the cookie lives as long as the session can
      const client = new Client(api.server.url);
      const answer = await client.post('/api/login', { username: player.username, password: player.password });
      const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('session='))!;
      expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).toBeGreaterThan(30 * 86_400 - 60);

      // an admin session unused for 31 minutes is over
      await api.db`update app.sessions set last_seen_at = now() - interval '31 minutes', expires_at = now() - interval '1 minute'
               where user_id = ${admin.id}`;
      expect((await admin.client.get('/api/admin/users/counts')).status).toBe(401);
    });
  });

  describe('throttling that cannot lock a player out', () => {
    /** Failed sign-ins for `username` from `count` addresses that are not the player's. */
    async function guess(username: string, count: number, ip = randomIp) {
      for (let attempt = 0; attempt < count; attempt++) {
        await new Client(api.server.url, ip()).post('/api/login', { username, password: `guess-${attempt}` });
      }
    }

    it('a browser that has signed in as the player is not slowed by failures from other addresses', async () => {
      const player = await registerPlayer(api.server);
      // someone has just failed 56 times from 56 addresses: every other browser now waits a minute
      await api.db`insert into app.login_attempts (action, username, ip, success)
               select 'login', ${player.username}, '10.200.0.' || g, false from generate_series(1, 56) g`;
      // the player's phone moves to another network: an address it never signed in from
      player.client.ip = randomIp();
      const own = await player.client.post('/api/login', { username: player.username, password: player.password });
      expect(own.status).toBe(200);

      // a browser without that history waits, and so does one whose device cookie is not signed by us
      const stranger = new Client(api.server.url);
      expect((await stranger.post('/api/login', { username: player.username, password: player.password })).status).toBe(
        429,
      );
      const forged = new Client(api.server.url);
      forged.device = `device=${player.client.device!.split('=')[1].slice(0, 23)}${'A'.repeat(43)}`;
      expect((await forged.post('/api/login', { username: player.username, password: player.password })).status).toBe(
        429,
      );
    });

    it("nor by someone guessing from the player's own address (a shared network)", async () => {
      const player = await registerPlayer(api.server);
      const shared = player.client.ip;
      await guess(player.username, 12, () => shared);
      expect(
        (
          await new Client(api.server.url, shared).post('/api/login', {
            username: player.username,
            password: player.password,
          })
        ).status,
      ).toBe(429);
      expect(
        (await player.client.post('/api/login', { username: player.username, password: player.password })).status,
      ).toBe(200);
    });

    it('still limits the device itself: 10 failures from it for the username in 15 minutes', async () => {
      const player = await registerPlayer(api.server);
      for (let attempt = 0; attempt < 10; attempt++) {
        player.client.ip = randomIp();
        expect(
          (await player.client.post('/api/login', { username: player.username, password: `typo-${attempt}` })).status,
        ).toBe(401);
      }
      expect(
        (await player.client.post('/api/login', { username: player.username, password: player.password })).status,
      ).toBe(429);
    });

    it('signs the device cookie and keeps it long (HttpOnly, for the API only)', async () => {
      const client = new Client(api.server.url);
      const answer = await client.post('/api/register', {
        name: 'Device Owner',
        username: unique('dev'),
        email: `${unique('d')}@example.com`,
        password: 'secret-123',
      });
      const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('device='))!;
      expect(cookie).toMatch(
        /^device=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Max-Age=34560000; Path=\/api; HttpOnly; SameSite=Lax$/,
      );
      const [row] = await api.db`select count(*)::int from app.user_devices where user_id = ${answer.body.id}`;
      expect(row.count).toBe(1);
    });
  });
});

describe('the book cannot be beaten', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('a self-excluded player cannot come back under another name, phone number or bank account', async () => {
    const phone = `+91 9${String(Date.now()).slice(-9)}`;
    const player = await registerPlayer(api.server, { phone });
    await fund(api.server, player, 1_000);
    const account = {
      account_holder: 'Quitting Player',
      account_number: `7${String(Date.now()).slice(-11)}`,
      ifsc_code: 'SBIN0007777',
      bank_name: 'State Bank',
    };
    expect((await player.client.post('/api/bank-accounts', account)).status).toBe(201);
    const reference = `REF-${Date.now()}-EXCL`;
    expect(
      (
        await player.client.post('/api/wallet/deposit', {
          amount: 1000,
          paymentMethod: 'upi',
          reference,
          status: 'pending',
        })
      ).status,
    ).toBe(201);
    expect((await player.client.post('/api/account/self-exclusion', { months: 6 })).status).toBe(201);

    const [pending] = await api.db`select status from public.transactions where reference_id = ${reference}`;
    expect(pending.status, 'the pending deposit is failed when the exclusion starts').toBe('failed');

    const username = unique('back');
    const sameNumber = await new Client(api.server.url).post('/api/register', {
      name: 'Same Person',
      username,
      email: `${username}@example.com`,
      password: 'secret-123',
      phone: phone.replace('+91 ', '0'),
    });
    expect(sameNumber.status).toBe(403);
    expect(sameNumber.body).toEqual({ message: "We can't open an account with these details" });

    const other = await registerPlayer(api.server);
    const reused = await other.client.post('/api/bank-accounts', account);
    expect(reused.status).toBe(403);
    expect(reused.body).toEqual({ message: 'This bank account cannot be used' });
    expect((await other.client.get('/api/bank-accounts')).body).toEqual([]);
  });
});

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('holds the per-username-and-address login limit under 40 parallel wrong logins: at most 10 are 401, the rest 429', async () => {
    const player = await registerPlayer(api.server);
    const attacker = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        new Client(api.server.url, attacker).post('/api/login', { username: player.username, password: 'wrong-pass' }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(count(statuses, 401)).toBeGreaterThan(0);
    expect(count(statuses, 401)).toBeLessThanOrEqual(10);
    expect(count(statuses, 429)).toBe(40 - count(statuses, 401));
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body).toEqual(TOO_MANY);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // the right password is refused too from that address while it is blocked
    expect(
      (
        await new Client(api.server.url, attacker).post('/api/login', {
          username: player.username,
          password: player.password,
        })
      ).status,
    ).toBe(429);
  });

  it('slows 60 parallel wrong logins for one username from 60 addresses with a short Retry-After, never a lockout', async () => {
    const player = await registerPlayer(api.server);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        new Client(api.server.url, randomIp()).post('/api/login', {
          username: player.username,
          password: 'wrong-pass',
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(count(statuses, 401)).toBeGreaterThanOrEqual(50);
    expect(count(statuses, 401)).toBeLessThan(60);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBe(60 - count(statuses, 401));
    expect(refused[0].body).toEqual({ message: 'Too many attempts for this username. Please try again in a minute.' });
    for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('holds the per-IP registration limit under 30 parallel duplicate registrations: at most 10 are 409', async () => {
    const taken = await registerPlayer(api.server);
    const ip = randomIp();
    const statuses = (
      await Promise.all(
        Array.from({ length: 30 }, () =>
          new Client(api.server.url, ip).post('/api/register', {
            name: 'Duplicate',
            username: taken.username,
            email: `${unique('dup')}@example.com`,
            password: 'secret-123',
          }),
        ),
      )
    ).map((answer) => answer.status);
    expect(count(statuses, 409)).toBeGreaterThan(0);
    expect(count(statuses, 409)).toBeLessThanOrEqual(10);
    expect(count(statuses, 429)).toBe(30 - count(statuses, 409));
  });

  it('refuses a NUL character in text fields with 400 (never 500) and stores nothing', async () => {
    const username = unique('nul');
    const register = await new Client(api.server.url).post('/api/register', {
      name: 'Nul\u0000Name',
      username,
      email: `${username}@example.com`,
      password: 'secret-123',
    });
    expect(register.status).toBe(400);
    expect(register.body).toEqual({ message: 'Name contains invalid characters' });
    expect((await api.db`select count(*)::int as n from public.users where username = ${username}`)[0].n).toBe(0);

    const login = await new Client(api.server.url).post('/api/login', {
      username: 'nul\u0000user',
      password: 'secret-123',
    });
    expect(login.status).toBe(400);
    expect(login.body).toEqual({ message: 'Username contains invalid characters' });

    const player = await registerPlayer(api.server);
    const account = await player.client.post('/api/bank-accounts', {
      ...newBankAccount(),
      account_holder: 'Holder\u0000Name',
    });
    expect(account.status).toBe(400);
    expect(account.body).toEqual({ message: 'Account holder contains invalid characters' });
    const notes = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, {
      amount: 100,
      notes: 'why\u0000',
    });
    expect(notes.status).toBe(400);
    expect(notes.body).toEqual({ message: 'Notes contains invalid characters' });
    const match = await api.admin.client.post('/api/admin/matches', {
      team1_id: 1,
      team2_id: 2,
      start_time: new Date(Date.now() + 3_600_000).toISOString(),
      venue: 'Eden\u0000Gardens',
    });
    expect(match.status).toBe(400);
    expect(match.body).toEqual({ message: 'Venue contains invalid characters' });

    // the safety net: a NUL that reaches SQL (the webhook's reference) is 400 'Invalid input', no SQL text
    const hook = await sendWebhook(api.server, { reference: 'REF-1\u0000-AAAA', amount: 500, status: 'success' });
    expect(hook.status).toBe(400);
    expect(hook.body).toEqual({ message: 'Invalid input' });
    expect(await balance(api.db, player.id)).toBe(0);
    expect(await transactionCount(api.db, player.id)).toBe(0);
  });

  it.each([
    ['zero-width space', 'ali\u200bce'],
    ['right-to-left override', 'evil\u202egpj'],
    ['space', 'two words'],
    ['at sign', 'me@home'],
  ])('refuses a username with a %s (400)', async (_, name) => {
    const username = `${name}${unique('')}`;
    const answer = await new Client(api.server.url).post('/api/register', {
      name: 'Look Alike',
      username,
      email: `${unique('la')}@example.com`,
      password: 'secret-123',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: 'Username may contain only letters, digits, dots, hyphens and underscores',
    });
  });

  it('accepts dots, hyphens and underscores and signs in case-insensitively', async () => {
    const username = `Mixed.Case-${unique('ok')}_x`;
    const client = new Client(api.server.url);
    expect(
      (
        await client.post('/api/register', {
          name: 'Mixed Case',
          username,
          email: `${unique('mc')}@example.com`,
          password: 'secret-123',
        })
      ).status,
    ).toBe(201);
    const login = await new Client(api.server.url).post('/api/login', {
      username: username.toLowerCase(),
      password: 'secret-123',
    });
    expect(login.status).toBe(200);
  });
});

describe('one person, one account', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  const register = (phone: string | null) => {
    const username = unique('one');
    return new Client(api.server.url).post('/api/register', {
      name: 'Same Person',
      username,
      email: `${username}@example.com`,
      password: 'secret-123',
      phone,
    });
  };

  it('a phone number opens one account: a second registration or a change to it is refused', async () => {
    const phone = newPhone();
    const first = await register(`+91 ${phone.slice(0, 5)} ${phone.slice(5)}`);
    expect(first.status).toBe(201);
    const second = await register(`0${phone}`);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ message: 'This phone number is already in use' });

    const other = await registerPlayer(api.server);
    const change = await other.client.patch('/api/user', { phone });
    expect(change.status).toBe(409);
    expect(change.body).toEqual({ message: 'This phone number is already in use' });
    expect((await other.client.get('/api/user')).body.phone).toBeNull();

    const fresh = newPhone();
    const own = await other.client.patch('/api/user', { phone: fresh, name: 'Other Name' });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: other.id, phone: fresh, name: 'Other Name' });
    const removed = await other.client.patch('/api/user', { phone: null });
    expect(removed.body.phone).toBeNull();
    expect((await register(fresh)).status, 'a removed number is free again').toBe(201);
    const invalid = await other.client.patch('/api/user', { name: 'x' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: 'Name must be at least 2 characters' });
  });
});
