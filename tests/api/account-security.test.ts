/**
 * Accounts that cannot be taken over, /api/account's security routes
 * (edge-functions/api/routes/account-security.ts): the Security screen's password change and sessions, and
 * two-factor sign-in for admins (required of them with ADMIN_MFA=required). pgTAP: supabase/tests/11a-account-security.
 */
import { describe, expect, it } from 'vitest';
import { apiSuite, Client, createAdmin, registerPlayer, anotherBrowser } from '../support/api.ts';
import { createTotpAdmin, totpCode, MFA_REQUIRED } from '../support/accounts.ts';

describe('account security', () => {
  const api = apiSuite();

  describe('the Security screen', () => {
    it('changes the password: the current one first, every other session ends, this one stays', async () => {
      const player = await registerPlayer(api.server);
      const second = await anotherBrowser(api.server, player);
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
      const second = await anotherBrowser(api.server, player);
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
  });

  describe('two-factor sign-in for admins', () => {
    it('an admin sets it up with a code from the secret and gets ten recovery codes; other sessions end', async () => {
      const admin = await createAdmin(api.server, api.db);
      const second = await anotherBrowser(api.server, admin);
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
