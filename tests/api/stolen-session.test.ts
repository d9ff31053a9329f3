/**
 * What someone holding a copy of another user's session cookie can do, tried as they would: set up a second
 * factor of their own on an admin's account (replacing the owner's and signing the owner out), keep the
 * copy working after the owner changes their password or second factor, and keep a live stream (with the
 * player's own results) open after the session has ended.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { apiSuite, Client, createAdmin, registerPlayer, type Db, type Player } from '../support/api.ts';
import { createTotpAdmin, totpCode } from '../support/accounts.ts';
import { subscribe, type SseClient } from '../support/sse.ts';

const CODE_NEEDED = { message: 'Enter the 6-digit code from your authenticator app' };
const WRONG_PASSWORD = { message: 'Current password is incorrect' };

/** Another browser holding a copy of `owner`'s session cookie (stolen from a shared computer, a log, malware). */
function thief(owner: Player): Client {
  const copy = new Client(owner.client.baseUrl);
  copy.cookie = owner.client.cookie;
  return copy;
}

/** What an account's second factor is now: its secret and the recovery codes it can still use. */
async function secondFactor(db: Db, userId: number) {
  const [row] = await db`select c.totp_secret, c.totp_pending_secret,
                                (select count(*)::int from app.recovery_codes r where r.user_id = c.user_id and r.used_at is null) as codes
                         from app.credentials c where c.user_id = ${userId}`;
  return row;
}

/** A code that is not the current one (whatever the clock says). */
const wrongCode = (secret: string) => (totpCode(secret) === '123456' ? '654321' : '123456');

/** Whether the server ends `stream` within `ms`: the bound a session's end gives its streams. */
async function endsWithin(stream: SseClient, ms = 5_000): Promise<'ended' | 'still open'> {
  return Promise.race([stream.ended.then(() => 'ended' as const), sleep(ms).then(() => 'still open' as const)]);
}

describe('a stolen session', () => {
  const api = apiSuite({ admin: true });

  /** A live stream opened with `client`'s session cookie (what the SPA's EventSource sends). */
  const liveStream = (client: Client) => subscribe(`${api.server.url}/api/live/matches`, { cookie: client.cookie });

  describe('cannot take the second factor', () => {
    it("of an admin who has one: neither without the password nor without a current code; the owner's stays", async () => {
      const owner = await createTotpAdmin(api.server, api.db);
      expect(
        (
          await owner.client.post('/api/login', {
            username: owner.username,
            password: owner.password,
            totp_code: totpCode(owner.secret),
          })
        ).status,
      ).toBe(200);
      const before = await secondFactor(api.db, owner.id);
      const stolen = thief(owner);

      expect((await stolen.get('/api/admin/users/counts')).status).toBe(200); // the copy works as a session
      const noPassword = await stolen.post('/api/account/two-factor', {});
      expect(noPassword.status).toBe(400);
      expect(noPassword.body).toEqual({ message: 'Enter your current password' });
      const guessed = await stolen.post('/api/account/two-factor', { current_password: 'admin-secret-2' });
      expect(guessed.status).toBe(400);
      expect(guessed.body).toEqual(WRONG_PASSWORD);
      // even with the password (phished), a code of the owner's authenticator is needed
      const noCode = await stolen.post('/api/account/two-factor', { current_password: owner.password });
      expect(noCode.status).toBe(401);
      expect(noCode.body).toEqual(CODE_NEEDED);
      const wrong = await stolen.post('/api/account/two-factor', {
        current_password: owner.password,
        totp_code: wrongCode(owner.secret),
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual(CODE_NEEDED);
      const wrongRecovery = await stolen.post('/api/account/two-factor', {
        current_password: owner.password,
        totp_code: 'abcde-fghjk',
      });
      expect(wrongRecovery.status).toBe(401);
      expect(wrongRecovery.body).toEqual(CODE_NEEDED);
      // nor can a set-up be confirmed with a guessed password
      const confirm = await stolen.post('/api/account/two-factor/confirm', {
        code: '123456',
        current_password: 'admin-secret-2',
      });
      expect(confirm.status).toBe(409); // nothing to confirm: the thief learns nothing about the password

      expect(await secondFactor(api.db, owner.id)).toEqual(before);
      expect((await owner.client.get('/api/admin/users/counts')).status).toBe(200); // the owner is still signed in
      const [{ failures }] = await api.db`select count(*)::int as failures from app.login_attempts
                                          where username = ${owner.username} and not success`;
      expect(failures).toBeGreaterThanOrEqual(4); // each refused proof counted like a failed sign-in
    });

    it('of an admin without one: the password is needed to start and to confirm', async () => {
      const owner = await createAdmin(api.server, api.db);
      const stolen = thief(owner);
      const started = await stolen.post('/api/account/two-factor', { current_password: 'admin-secret-2' });
      expect(started.status).toBe(400);
      expect(started.body).toEqual(WRONG_PASSWORD);

      // the owner starts a set-up; the thief cannot finish it with a code of their own device either
      const owned = await owner.client.post('/api/account/two-factor', { current_password: owner.password });
      expect(owned.status).toBe(201);
      const confirmed = await stolen.post('/api/account/two-factor/confirm', {
        code: totpCode(owned.body.secret),
        current_password: 'admin-secret-2',
      });
      expect(confirmed.status).toBe(400);
      expect(confirmed.body).toEqual(WRONG_PASSWORD);
      expect((await secondFactor(api.db, owner.id)).totp_secret).toBeNull();
    });
  });

  it('lets the owner replace their second factor with the password and current codes (each used once)', async () => {
    const owner = await createTotpAdmin(api.server, api.db);
    // signed in with a recovery code, so the next two time steps are fresh
    expect(
      (
        await owner.client.post('/api/login', {
          username: owner.username,
          password: owner.password,
          totp_code: owner.recoveryCodes[0],
        })
      ).status,
    ).toBe(200);
    const started = await owner.client.post('/api/account/two-factor', {
      current_password: owner.password,
      totp_code: totpCode(owner.secret),
    });
    expect(started.status).toBe(201);
    const again = await owner.client.post('/api/account/two-factor/confirm', {
      code: totpCode(started.body.secret),
      current_password: owner.password,
      totp_code: totpCode(owner.secret), // the code that started it: spent
    });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ message: 'This code was already used: wait for the next one' });
    const confirmed = await owner.client.post('/api/account/two-factor/confirm', {
      code: totpCode(started.body.secret),
      current_password: owner.password,
      totp_code: totpCode(owner.secret, 1),
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    // the old authenticator and recovery codes sign in no more
    const old = await new Client(api.server.url).post('/api/login', {
      username: owner.username,
      password: owner.password,
      totp_code: owner.recoveryCodes[1],
    });
    expect(old.status).toBe(401);
    expect((await owner.client.get('/api/admin/users/counts')).status).toBe(200);
  });

  describe('does not survive', () => {
    it("the owner's password change: the copied cookie answers 401, the owner's tab goes on with a new one", async () => {
      const owner = await registerPlayer(api.server);
      const stolen = thief(owner);
      const oldCookie = owner.client.cookie;
      expect((await stolen.get('/api/user')).status).toBe(200);

      const changed = await owner.client.post('/api/account/password', {
        current_password: owner.password,
        new_password: 'brand-new-1',
      });
      expect(changed.status).toBe(200);
      expect(owner.client.cookie).not.toBe(oldCookie);
      expect(changed.headers.getSetCookie().find((line) => line.startsWith('session='))).toMatch(/HttpOnly/);

      const refused = await stolen.get('/api/user');
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ message: 'Not authenticated' });
      const me = await owner.client.get('/api/user');
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(owner.id);
      const sessions = (await owner.client.get('/api/account/sessions')).body;
      expect(sessions).toHaveLength(1);
      expect(sessions[0].current).toBe(true);
    });

    it("the owner's new second factor: the copied cookie answers 401", async () => {
      const owner = await createAdmin(api.server, api.db);
      const stolen = thief(owner);
      const started = await owner.client.post('/api/account/two-factor', { current_password: owner.password });
      const confirmed = await owner.client.post('/api/account/two-factor/confirm', {
        code: totpCode(started.body.secret),
        current_password: owner.password,
      });
      expect(confirmed.status).toBe(201);
      expect((await stolen.get('/api/admin/users/counts')).status).toBe(401);
      expect((await owner.client.get('/api/admin/users/counts')).status).toBe(200);
    });
  });

  describe("keeps no live stream open after the session ends (it carries the player's own results)", () => {
    it("sign-out everywhere from another device closes it within 5 s; a visitor's stream stays", async () => {
      const owner = await registerPlayer(api.server);
      const stolen = thief(owner);
      const [ownerStream, stolenStream, visitor] = await Promise.all([
        liveStream(owner.client),
        liveStream(stolen),
        subscribe(`${api.server.url}/api/live/matches`),
      ]);
      try {
        const phone = new Client(api.server.url);
        expect((await phone.post('/api/login', { username: owner.username, password: owner.password })).status).toBe(
          200,
        );
        expect((await phone.post('/api/logout-all')).status).toBe(200);
        expect(await Promise.all([endsWithin(ownerStream), endsWithin(stolenStream)])).toEqual(['ended', 'ended']);
        expect(await endsWithin(visitor, 500)).toBe('still open');
      } finally {
        [ownerStream, stolenStream, visitor].forEach((stream) => stream.close());
      }
    });

    it('a ban or a suspension closes it within 5 s', async () => {
      for (const status of ['banned', 'suspended']) {
        const player = await registerPlayer(api.server);
        const stream = await liveStream(player.client);
        try {
          expect((await api.admin.client.patch(`/api/admin/users/${player.id}/status`, { status })).status).toBe(200);
          expect(await endsWithin(stream), status).toBe('ended');
        } finally {
          stream.close();
        }
      }
    });

    it('a password change closes the streams of the old session and the others; the new cookie streams', async () => {
      const owner = await registerPlayer(api.server);
      const stolen = thief(owner);
      const [ownerStream, stolenStream] = await Promise.all([liveStream(owner.client), liveStream(stolen)]);
      try {
        const changed = await owner.client.post('/api/account/password', {
          current_password: owner.password,
          new_password: 'brand-new-1',
        });
        expect(changed.status).toBe(200);
        expect(await Promise.all([endsWithin(ownerStream), endsWithin(stolenStream)])).toEqual(['ended', 'ended']);
        // the tab's browser reconnects with the cookie it was just given: a stream of the new session
        const reconnected = await liveStream(owner.client);
        expect(await endsWithin(reconnected, 500)).toBe('still open');
        reconnected.close();
      } finally {
        ownerStream.close();
        stolenStream.close();
      }
    });
  });
});
