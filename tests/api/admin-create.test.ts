/**
 * `npm run admin:create` never captures an account: a player's username only with --promote (signing them
 * out everywhere), two-factor sign-in set up with the admin, and an administrator's password of 12 characters or
 * more.
 */
import { describe, expect, it } from 'vitest';
import { apiSuite, Client, createAdmin, registerPlayer, unique, anotherBrowser } from '../support/api.ts';
import { adminCreate, totpCode, MFA_REQUIRED } from '../support/accounts.ts';

describe('account security', () => {
  const api = apiSuite();

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
      const second = await anotherBrowser(api.server, player);
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
  });
});
