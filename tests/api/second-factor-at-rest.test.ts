/**
 * Second factors at rest and the wrong-code lock, over HTTP: what the database keeps of a second factor
 * tells a reader of it (a dump, a replica) nothing usable; what was kept before sealing existed keeps working
 * and is sealed at its next use or by `npm run admin:create`; someone with an admin's password who guesses
 * codes is stopped after ten, the owner's own browser is not, and the owner and the audit log see the lock.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openTotpSecret } from '../../edge-functions/_shared/second-factor.ts';
import { apiSuite, Client, createAdmin, startServer, unique, type Db } from '../support/api.ts';
import { adminCreate, createTotpAdmin, testTotpKey, totpCode } from '../support/accounts.ts';

/** What the database keeps of an account's second factor. */
async function stored(db: Db, userId: number) {
  const [row] = await db`select totp_secret, recovery_code_salt from app.credentials where user_id = ${userId}`;
  const codes = await db`select code_hash from app.recovery_codes where user_id = ${userId}`;
  return {
    totp_secret: row.totp_secret as string,
    recovery_code_salt: row.recovery_code_salt as string,
    codes: codes.map((code) => code.code_hash as string),
  };
}

/**
 * Puts an admin in the state of an account set up before sealing: its secret in clear and its recovery codes
 * as unsalted SHA-256.
 */
async function keptAsBefore(db: Db, userId: number, secret: string, recoveryCodes: string[]) {
  await db.begin(async (tx) => {
    await tx`update app.credentials set totp_secret = ${secret}, recovery_code_salt = null where user_id = ${userId}`;
    await tx`delete from app.recovery_codes where user_id = ${userId}`;
    for (const code of recoveryCodes) {
      const hash = createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
      await tx`insert into app.recovery_codes (user_id, code_hash) values (${userId}, ${hash})`;
    }
  });
}

describe('second factors at rest', () => {
  const api = apiSuite({ admin: true });

  it('keep the secret sealed and the recovery codes salted: a copy of the database holds neither', async () => {
    const admin = await createAdmin(api.server, api.db);
    const setUp = await admin.client.post('/api/account/two-factor', { current_password: admin.password });
    const pendingRow = await stored(api.db, admin.id);
    const [{ totp_pending_secret: pending }] =
      await api.db`select totp_pending_secret from app.credentials where user_id = ${admin.id}`;
    expect(pending).toMatch(/^v1\./);
    expect(pending).not.toContain(setUp.body.secret);
    expect(pendingRow.totp_secret).toBeNull();
    const confirmed = await admin.client.post('/api/account/two-factor/confirm', {
      code: totpCode(setUp.body.secret),
      current_password: admin.password,
    });
    expect(confirmed.status).toBe(201);

    const kept = await stored(api.db, admin.id);
    expect(kept.totp_secret).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43,}$/);
    expect(kept.totp_secret).not.toContain(setUp.body.secret);
    expect(openTotpSecret(testTotpKey(), admin.id, kept.totp_secret)).toBe(setUp.body.secret);
    expect(kept.recovery_code_salt).toMatch(/^[0-9a-f]{32}$/);
    const [code] = confirmed.body.recovery_codes as string[];
    const normalised = code.replace('-', '');
    expect(kept.codes).toContain(createHmac('sha256', kept.recovery_code_salt).update(normalised).digest('hex'));
    expect(kept.codes).not.toContain(createHash('sha256').update(normalised).digest('hex'));
    // and the recovery code signs in
    expect(
      (
        await new Client(api.server.url).post('/api/login', {
          username: admin.username,
          password: admin.password,
          totp_code: code,
        })
      ).status,
    ).toBe(200);
  });

  it('keep what was kept before working: a secret in clear is sealed at its next use, ending no session', async () => {
    const admin = await createTotpAdmin(api.server, api.db);
    await keptAsBefore(api.db, admin.id, admin.secret, admin.recoveryCodes);
    // signed in with an unsalted recovery code, which keeps working
    const laptop = new Client(api.server.url);
    expect(
      (
        await laptop.post('/api/login', {
          username: admin.username,
          password: admin.password,
          totp_code: admin.recoveryCodes[0],
        })
      ).status,
    ).toBe(200);
    // (again: an admin:create of another test file seals every secret in clear it finds)
    await keptAsBefore(api.db, admin.id, admin.secret, admin.recoveryCodes.slice(1));

    const signedIn = await admin.client.post('/api/login', {
      username: admin.username,
      password: admin.password,
      totp_code: totpCode(admin.secret),
    });
    expect(signedIn.status).toBe(200);
    const kept = await stored(api.db, admin.id);
    expect(kept.totp_secret).toMatch(/^v1\./);
    expect(openTotpSecret(testTotpKey(), admin.id, kept.totp_secret)).toBe(admin.secret);
    expect((await laptop.get('/api/admin/users/counts')).status).toBe(200); // the same factor: nobody signed out
    // the authenticator goes on working with the sealed secret
    expect(
      (
        await new Client(api.server.url).post('/api/login', {
          username: admin.username,
          password: admin.password,
          totp_code: totpCode(admin.secret, 1),
        })
      ).status,
    ).toBe(200);
  });

  it('npm run admin:create seals every secret still kept in clear, and touches nothing else', async () => {
    const admin = await createTotpAdmin(api.server, api.db);
    await keptAsBefore(api.db, admin.id, admin.secret, admin.recoveryCodes);
    const run = await adminCreate({
      ADMIN_USERNAME: unique('ops'),
      ADMIN_PASSWORD: 'operator-pass-1',
      ADMIN_MFA: 'optional',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Two-factor secrets sealed with TOTP_ENCRYPTION_KEY: \d+ kept in clear from before\./);
    const [{ plain }] = await api.db`select count(*)::int as plain from app.credentials
                                     where totp_secret is not null and totp_secret not like 'v1.%'`;
    expect(plain).toBe(0);
    expect(openTotpSecret(testTotpKey(), admin.id, (await stored(api.db, admin.id)).totp_secret)).toBe(admin.secret);
    expect(
      (
        await admin.client.post('/api/login', {
          username: admin.username,
          password: admin.password,
          totp_code: totpCode(admin.secret),
        })
      ).status,
    ).toBe(200);
  });

  it('admin:create seals a new second factor too, with salted recovery codes', async () => {
    const username = unique('ops');
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const run = await adminCreate({
      ADMIN_USERNAME: username,
      ADMIN_PASSWORD: 'operator-pass-1',
      ADMIN_TOTP_SECRET: secret,
    });
    expect(run.code, run.stderr).toBe(0);
    const [{ id }] = await api.db`select id from public.users where username = ${username}`;
    const kept = await stored(api.db, id);
    expect(openTotpSecret(testTotpKey(), id, kept.totp_secret)).toBe(secret);
    expect(kept.recovery_code_salt).toMatch(/^[0-9a-f]{32}$/);
  });

  it('are read by nobody without the key: a server without TOTP_ENCRYPTION_KEY answers 503 for a sealed one', async () => {
    const admin = await createTotpAdmin(api.server, api.db);
    const server = await startServer({ env: { TOTP_ENCRYPTION_KEY: '' } });
    try {
      const answer = await new Client(server.url).post('/api/login', {
        username: admin.username,
        password: admin.password,
        totp_code: totpCode(admin.secret),
      });
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ message: 'Two-factor sign-in is not configured on this server' });
    } finally {
      await server.stop();
    }
  });
});

describe('ten wrong codes', () => {
  const api = apiSuite({ admin: true });
  const LOCKED = { message: 'Too many wrong codes. Please try again in a few minutes.' };
  const wrongCode = (secret: string) => (totpCode(secret) === '123456' ? '654321' : '123456');

  it("lock the second factor for every browser but the owner's; the owner and the audit log see it", async () => {
    const owner = await createTotpAdmin(api.server, api.db);
    // the owner's browser has signed in before
    expect(
      (
        await owner.client.post('/api/login', {
          username: owner.username,
          password: owner.password,
          totp_code: owner.recoveryCodes[0],
        })
      ).status,
    ).toBe(200);
    // someone with the password guesses codes, from a new address each time (the per-address limits never bite)
    const guess = (totp_code: string) =>
      new Client(api.server.url).post('/api/login', { username: owner.username, password: owner.password, totp_code });
    for (let attempt = 0; attempt < 9; attempt++) expect((await guess(wrongCode(owner.secret))).status).toBe(401);
    expect((await guess('wrong-recovery')).body).toEqual({ message: 'Invalid code' }); // the tenth: a recovery code
    const refused = await guess(totpCode(owner.secret)); // even the right code, now
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(LOCKED);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);

    // the owner's own browser is spared
    const own = await owner.client.post('/api/login', {
      username: owner.username,
      password: owner.password,
      totp_code: totpCode(owner.secret),
    });
    expect(own.status).toBe(200);
    const status = (await owner.client.get('/api/account/two-factor')).body;
    expect(Date.parse(status.locked_until)).toBeGreaterThan(Date.now() + 800_000);
    const audit = await api.admin.client.get('/api/admin/audit-log');
    const locked = audit.body.find(
      (row: { action: string; target_id: number }) =>
        row.action === 'user.second_factor_locked' && row.target_id === owner.id,
    );
    expect(locked).toMatchObject({ admin_id: null, target_type: 'user', after: { wrong_codes: 10 } });
  });

  it('count at a set-up too: a stolen session guessing the current code is locked out the same way', async () => {
    const owner = await createTotpAdmin(api.server, api.db);
    expect(
      (
        await owner.client.post('/api/login', {
          username: owner.username,
          password: owner.password,
          totp_code: owner.recoveryCodes[0],
        })
      ).status,
    ).toBe(200);
    const stolen = new Client(api.server.url);
    stolen.cookie = owner.client.cookie;
    for (let attempt = 0; attempt < 10; attempt++) {
      stolen.ip = `203.0.113.${attempt + 1}`;
      const answer = await stolen.post('/api/account/two-factor', {
        current_password: owner.password,
        totp_code: wrongCode(owner.secret),
      });
      expect(answer.status).toBe(401);
    }
    const [{ wrong }] =
      await api.db`select count(*)::int as wrong from app.second_factor_failures where user_id = ${owner.id}`;
    expect(wrong).toBe(10);
    const locked = await stolen.post('/api/account/two-factor', {
      current_password: owner.password,
      totp_code: totpCode(owner.secret),
    });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual(LOCKED);
  });

  it('spare an admin whose code is merely mistyped a few times', async () => {
    const owner = await createTotpAdmin(api.server, api.db);
    const client = new Client(api.server.url);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(
        (
          await client.post('/api/login', {
            username: owner.username,
            password: owner.password,
            totp_code: wrongCode(owner.secret),
          })
        ).status,
      ).toBe(401);
    }
    expect(
      (
        await client.post('/api/login', {
          username: owner.username,
          password: owner.password,
          totp_code: totpCode(owner.secret),
        })
      ).status,
    ).toBe(200);
  });
});
