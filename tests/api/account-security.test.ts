/**
 * Accounts that cannot be taken over: admin creation, reserved names, sessions that follow the account,
 * the Security screen's API, two-factor sign-in for admins and throttling that cannot lock a player out.
 */
import { describe, expect, it } from 'vitest';
import { apiSuite, Client, createAdmin, randomIp, registerPlayer, unique, type Player } from '../support/api.ts';
import { adminCreate, createTotpAdmin, totpCode } from '../support/accounts.ts';

const MFA_REQUIRED = { message: 'Enter the 6-digit code from your authenticator app', mfa_required: true };

describe('account security', () => {
  const api = apiSuite();

  /** The same player signed in from one more browser. */
  async function anotherBrowser(player: Player): Promise<Client> {
    const client = new Client(api.server.url);
    const answer = await client.post('/api/login', { username: player.username, password: player.password });
    expect(answer.status).toBe(200);
    return client;
  }

  describe('admin creation never captures an account', () => {
    it("refuses a player's username without --promote: the player stays a player and keeps their session", async () => {
      const player = await registerPlayer(api.server);
      const run = await adminCreate({ ADMIN_USERNAME: player.username, ADMIN_PASSWORD: 'operator-pass-1' });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(
        `'${player.username}' is a player account; pass --promote to make it an administrator`,
      );

      const me = await player.client.get('/api/user');
      expect(me.status).toBe(200);
      expect(me.body.role).toBe('user');
      expect((await player.client.get('/api/admin/users')).status).toBe(403);
      const [row] = await api.db`select role from public.users where id = ${player.id}`;
      expect(row.role).toBe('user');
      // the player's own password still works; the operator's does not
      expect(
        (
          await new Client(api.server.url).post('/api/login', {
            username: player.username,
            password: 'operator-pass-1',
          })
        ).status,
      ).toBe(401);
    });

    it('promotes with --promote and signs the user out everywhere', async () => {
      const player = await registerPlayer(api.server);
      const second = await anotherBrowser(player);
      const run = await adminCreate({ ADMIN_USERNAME: player.username, ADMIN_PASSWORD: 'operator-pass-1' }, [
        '--promote',
      ]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Admin account: username "${player.username}"`);

      expect((await player.client.get('/api/user')).status).toBe(401);
      expect((await second.get('/api/user')).status).toBe(401);
      const [row] =
        await api.db`select role, (select count(*)::int from app.sessions where user_id = ${player.id}) as sessions
                             from public.users where id = ${player.id}`;
      expect(row).toEqual({ role: 'admin', sessions: 0 });
    });

    it('sets up two-factor sign-in: with ADMIN_TOTP_SECRET without asking, else printing an otpauth:// URI', async () => {
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      const withSecret = unique('ops');
      const given = await adminCreate({
        ADMIN_USERNAME: withSecret,
        ADMIN_PASSWORD: 'operator-pass-1',
        ADMIN_TOTP_SECRET: secret,
      });
      expect(given.code).toBe(0);
      expect(given.stdout).toContain('Two-factor sign-in: on, with the secret of ADMIN_TOTP_SECRET.');
      const client = new Client(api.server.url);
      expect((await client.post('/api/login', { username: withSecret, password: 'operator-pass-1' })).body).toEqual(
        MFA_REQUIRED,
      );
      const signedIn = await client.post('/api/login', {
        username: withSecret,
        password: 'operator-pass-1',
        totp_code: totpCode(secret),
      });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.role).toBe('admin');

      const printed = await adminCreate({ ADMIN_USERNAME: unique('ops'), ADMIN_PASSWORD: 'operator-pass-1' });
      expect(printed.code).toBe(0);
      expect(printed.stdout).toMatch(/otpauth:\/\/totp\/\S*[?&]secret=[A-Z2-7]+/);
      expect(printed.stdout).toMatch(
        /Recovery codes \(each works once; shown only now\): ([a-z2-9]{5}-[a-z2-9]{5} ?){10}/,
      );
    });

    it('refuses an administrator password under 12 characters: a new admin, a promotion, a reset', async () => {
      const tooShort = 'short-pass1'; // 11 characters
      const newName = unique('ops');
      const created = await adminCreate({ ADMIN_USERNAME: newName, ADMIN_PASSWORD: tooShort });
      expect(created.code).not.toBe(0);
      expect(created.stderr).toContain('ADMIN_PASSWORD: Administrator passwords must be at least 12 characters.');
      expect(await api.db`select id from public.users where username = ${newName}`).toEqual([]);

      const player = await registerPlayer(api.server);
      const promoted = await adminCreate({ ADMIN_USERNAME: player.username, ADMIN_PASSWORD: tooShort }, ['--promote']);
      expect(promoted.code).not.toBe(0);
      expect(promoted.stderr).toContain('Administrator passwords must be at least 12 characters');
      const [row] = await api.db`select role from public.users where id = ${player.id}`;
      expect(row.role).toBe('user');
      expect((await player.client.get('/api/user')).status).toBe(200);

      const admin = await createAdmin(api.server, api.db);
      const reset = await adminCreate({ ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: tooShort });
      expect(reset.code).not.toBe(0);
      expect(
        (await new Client(api.server.url).post('/api/login', { username: admin.username, password: tooShort })).status,
      ).toBe(401);
      expect((await adminCreate({ ADMIN_USERNAME: newName, ADMIN_PASSWORD: 'twelve-chars' })).code).toBe(0);
    });

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
    it('ends every session of a user whose status an admin changes, and of a suspended user made active again', async () => {
      const admin = await createAdmin(api.server, api.db);
      const player = await registerPlayer(api.server);
      const second = await anotherBrowser(player);
      expect((await admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'suspended' })).status).toBe(
        200,
      );
      expect((await player.client.get('/api/user')).status).toBe(401);
      expect((await second.get('/api/user')).status).toBe(401);

      const again = await anotherBrowser(player); // a suspended player may sign in and look
      expect((await admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'active' })).status).toBe(200);
      expect((await again.get('/api/user')).status).toBe(401);
      expect((await admin.client.get('/api/user')).status).toBe(200); // the admin's own session is untouched
    });

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

  describe('the Security screen', () => {
    it('changes the password: the current one first, every other session ends, this one stays', async () => {
      const player = await registerPlayer(api.server);
      const second = await anotherBrowser(player);
      const wrong = await player.client.post('/api/account/password', {
        current_password: 'not-it-1',
        new_password: 'brand-new-1',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ message: 'Current password is incorrect' });
      expect((await second.get('/api/user')).status).toBe(200);

      const short = await player.client.post('/api/account/password', {
        current_password: player.password,
        new_password: 'abc',
      });
      expect(short.body).toEqual({ message: 'Password must be at least 6 characters' });

      const changed = await player.client.post('/api/account/password', {
        current_password: player.password,
        new_password: 'brand-new-1',
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({ message: 'Password changed' });
      expect((await player.client.get('/api/user')).status).toBe(200);
      expect((await second.get('/api/user')).status).toBe(401);
      const client = new Client(api.server.url);
      expect((await client.post('/api/login', { username: player.username, password: player.password })).status).toBe(
        401,
      );
      expect((await client.post('/api/login', { username: player.username, password: 'brand-new-1' })).status).toBe(
        200,
      );
    });

    it("keeps an administrator's new password at 12 characters or more; a player's at 6", async () => {
      const admin = await createAdmin(api.server, api.db);
      const short = await admin.client.post('/api/account/password', {
        current_password: admin.password,
        new_password: 'eleven-char',
      });
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ message: 'Administrator passwords must be at least 12 characters' });
      const client = new Client(api.server.url);
      expect((await client.post('/api/login', { username: admin.username, password: 'eleven-char' })).status).toBe(401);
      expect((await client.post('/api/login', { username: admin.username, password: admin.password })).status).toBe(
        200,
      );
      expect(
        (
          await admin.client.post('/api/account/password', {
            current_password: admin.password,
            new_password: 'twelve-chars',
          })
        ).status,
      ).toBe(200);

      const player = await registerPlayer(api.server);
      expect(
        (
          await player.client.post('/api/account/password', {
            current_password: player.password,
            new_password: 'seven-7',
          })
        ).status,
      ).toBe(200);
    });

    it('counts wrong current passwords like failed sign-ins: a stolen session cannot guess faster', async () => {
      const player = await registerPlayer(api.server);
      for (let attempt = 0; attempt < 10; attempt++) {
        expect(
          (
            await player.client.post('/api/account/password', {
              current_password: `guess-${attempt}`,
              new_password: 'brand-new-1',
            })
          ).status,
        ).toBe(400);
      }
      const refused = await player.client.post('/api/account/password', {
        current_password: player.password,
        new_password: 'brand-new-1',
      });
      expect(refused.status).toBe(429);
      const [credentials] = await api.db`select password_hash from app.credentials where user_id = ${player.id}`;
      expect(
        (await new Client(api.server.url).post('/api/login', { username: player.username, password: player.password }))
          .status,
      ).toBe(200);
      expect(credentials.password_hash).toMatch(/^scrypt\$/);
    });

    it("lists the user's sessions with browser, address and last use, marks this one, and never shows a token hash", async () => {
      const player = await registerPlayer(api.server);
      const phone = new Client(api.server.url, '10.77.0.5');
      await phone.post(
        '/api/login',
        { username: player.username, password: player.password },
        {
          'user-agent':
            'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
        },
      );
      const answer = await player.client.get('/api/account/sessions');
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveLength(2);
      const [mine] = answer.body.filter((session: { current: boolean }) => session.current);
      const [other] = answer.body.filter((session: { current: boolean }) => !session.current);
      expect(mine.ip).toBe(player.client.ip);
      expect(other).toMatchObject({
        ip: '10.77.0.5',
        user_agent: expect.stringContaining('Android 14'),
        current: false,
      });
      expect(Object.keys(other).sort()).toEqual([
        'created_at',
        'current',
        'expires_at',
        'id',
        'ip',
        'last_seen_at',
        'user_agent',
      ]);
      const hashes = await api.db`select token_hash from app.sessions where user_id = ${player.id}`;
      for (const { token_hash: hash } of hashes) expect(answer.text).not.toContain(hash);

      // the address a session is used from is kept up to date
      phone.ip = '10.77.0.6';
      await phone.get('/api/user');
      const later = await player.client.get('/api/account/sessions');
      expect(later.body.find((session: { id: number }) => session.id === other.id).ip).toBe('10.77.0.6');
    });

    it("ends one session by its id; another user's session id is a 404", async () => {
      const player = await registerPlayer(api.server);
      const stranger = await registerPlayer(api.server);
      const second = await anotherBrowser(player);
      const sessions = (await player.client.get('/api/account/sessions')).body;
      const other = sessions.find((session: { current: boolean }) => !session.current);

      expect((await stranger.client.delete(`/api/account/sessions/${other.id}`)).status).toBe(404);
      expect((await second.get('/api/user')).status).toBe(200);

      const ended = await player.client.delete(`/api/account/sessions/${other.id}`);
      expect(ended.status).toBe(200);
      expect((await second.get('/api/user')).status).toBe(401);
      expect((await player.client.get('/api/user')).status).toBe(200);
      expect((await player.client.delete(`/api/account/sessions/${other.id}`)).body).toEqual({
        message: 'Session not found',
      });
    });

    it('signs out everywhere, this session included', async () => {
      const player = await registerPlayer(api.server);
      const second = await anotherBrowser(player);
      const answer = await player.client.post('/api/logout-all');
      expect(answer.status).toBe(200);
      expect(player.client.cookie).toBeNull();
      expect((await second.get('/api/user')).status).toBe(401);
      const [{ count }] = await api.db`select count(*)::int from app.sessions where user_id = ${player.id}`;
      expect(count).toBe(0);
    });
  });

  describe('two-factor sign-in for admins', () => {
    it('an admin sets it up with a code from the secret and gets ten recovery codes; other sessions end', async () => {
      const admin = await createAdmin(api.server, api.db);
      const second = await anotherBrowser(admin);
      expect((await admin.client.get('/api/account/two-factor')).body).toEqual({
        enabled: false,
        available: true,
        required: false,
        recovery_codes_left: 0,
        locked_until: null,
      });
      const setUp = await admin.client.post('/api/account/two-factor', { current_password: admin.password });
      expect(setUp.status).toBe(201);
      expect(setUp.body.uri).toBe(
        `otpauth://totp/Cricket%20League:${admin.username}?issuer=Cricket%20League&secret=${setUp.body.secret}&algorithm=SHA1&digits=6&period=30`,
      );

      const wrong = await admin.client.post('/api/account/two-factor/confirm', {
        code: '000000' === totpCode(setUp.body.secret) ? '111111' : '000000',
        current_password: admin.password,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ message: 'Invalid code' });
      const confirmed = await admin.client.post('/api/account/two-factor/confirm', {
        code: totpCode(setUp.body.secret),
        current_password: admin.password,
      });
      expect(confirmed.status).toBe(201);
      expect(confirmed.body.recovery_codes).toHaveLength(10);
      expect(new Set(confirmed.body.recovery_codes).size).toBe(10);
      const stored = await api.db`select code_hash from app.recovery_codes where user_id = ${admin.id}`;
      expect(stored).toHaveLength(10);
      for (const code of confirmed.body.recovery_codes) expect(JSON.stringify(stored)).not.toContain(code);

      expect((await admin.client.get('/api/account/two-factor')).body).toEqual({
        enabled: true,
        available: true,
        required: false,
        recovery_codes_left: 10,
        locked_until: null,
      });
      expect((await second.get('/api/user')).status).toBe(401);
      expect((await admin.client.get('/api/admin/users/counts')).status).toBe(200);

      // the code that confirmed the set-up cannot sign in; the next one can
      const client = new Client(api.server.url);
      const replayed = await client.post('/api/login', {
        username: admin.username,
        password: admin.password,
        totp_code: totpCode(setUp.body.secret),
      });
      expect(replayed.status).toBe(401);
      const next = await client.post('/api/login', {
        username: admin.username,
        password: admin.password,
        totp_code: totpCode(setUp.body.secret, 1),
      });
      expect(next.status).toBe(200);
    });

    it('asks for the code, refuses a wrong one and a used one, and takes each recovery code once', async () => {
      const admin = await createTotpAdmin(api.server, api.db);
      const login = (totp_code?: string) =>
        admin.client.post('/api/login', {
          username: admin.username,
          password: admin.password,
          ...(totp_code ? { totp_code } : {}),
        });

      const asked = await login();
      expect(asked.status).toBe(401);
      expect(asked.body).toEqual(MFA_REQUIRED);
      expect(admin.client.cookie).toBeNull();
      const wrongPassword = await admin.client.post('/api/login', {
        username: admin.username,
        password: 'wrong-pass',
        totp_code: totpCode(admin.secret),
      });
      expect(wrongPassword.body).toEqual({ message: 'Invalid username or password' });

      const code = totpCode(admin.secret);
      const wrong = await login(code === '123456' ? '654321' : '123456');
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ message: 'Invalid code' });

      expect((await login(code)).status).toBe(200);
      expect((await admin.client.get('/api/admin/users/counts')).status).toBe(200);
      const replay = await new Client(api.server.url).post('/api/login', {
        username: admin.username,
        password: admin.password,
        totp_code: code,
      });
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ message: 'This code was already used: wait for the next one' });

      const recovery = admin.recoveryCodes[3];
      expect(
        (
          await new Client(api.server.url).post('/api/login', {
            username: admin.username,
            password: admin.password,
            totp_code: recovery,
          })
        ).status,
      ).toBe(200);
      const again = await new Client(api.server.url).post('/api/login', {
        username: admin.username,
        password: admin.password,
        totp_code: recovery,
      });
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ message: 'Invalid code' });
      expect((await admin.client.get('/api/account/two-factor')).body.recovery_codes_left).toBe(9);
    });

    it('is for administrators: a player cannot set it up', async () => {
      const player = await registerPlayer(api.server);
      const answer = await player.client.post('/api/account/two-factor', { current_password: player.password });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ message: 'Two-factor sign-in is for administrators' });
      expect((await player.client.get('/api/account/two-factor')).body).toMatchObject({
        available: false,
        enabled: false,
      });
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

describe('ADMIN_MFA=required', () => {
  const api = apiSuite({ server: { env: { ADMIN_MFA: 'required' } } });

  it('lets an admin without a second factor only set one up; every admin route answers 403 until then', async () => {
    const admin = await createAdmin(api.server, api.db);
    const refused = await admin.client.get('/api/admin/users');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: 'Turn on two-factor sign-in on your Security screen to use the admin pages',
    });
    expect((await admin.client.patch('/api/admin/matches/1/start')).status).toBe(403);
    expect((await admin.client.get('/api/account/two-factor')).body).toMatchObject({ enabled: false, required: true });

    const setUp = await admin.client.post('/api/account/two-factor', { current_password: admin.password });
    expect(
      (
        await admin.client.post('/api/account/two-factor/confirm', {
          code: totpCode(setUp.body.secret),
          current_password: admin.password,
        })
      ).status,
    ).toBe(201);
    expect((await admin.client.get('/api/admin/users')).status).toBe(200);
  });

  it('asks nothing more of players', async () => {
    const player = await registerPlayer(api.server);
    expect((await player.client.get('/api/user')).status).toBe(200);
    expect((await player.client.get('/api/account/two-factor')).body).toMatchObject({ required: false });
  });
});
