/**
 * Helpers for the account-security tests: TOTP codes (with the same library the API checks them with),
 * an admin with a known second factor, and `npm run admin:create` run as the operator runs it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { decodeBase64 } from '../../edge-functions/_shared/base64url.ts';
import { newRecoverySalt, recoveryCodeHash, sealTotpSecret } from '../../edge-functions/_shared/second-factor.ts';
import { Client, hashPassword, unique, type Db, type Player, type TestServer } from './api.ts';
import { requireEnv } from './server.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** The answer to a right password of an account with two-factor sign-in, sent without its code. */
export const MFA_REQUIRED = { message: 'Enter the 6-digit code from your authenticator app', mfa_required: true };

/**
 * The code of `secret` for the time step `stepsAhead` steps from now. The API accepts the step before and
 * after the current one, so a test that needs two fresh codes uses 0 and then 1, whatever the clock does.
 */
export function totpCode(secret: string, stepsAhead = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

export interface TotpAdmin extends Player {
  secret: string;
  recoveryCodes: string[];
}

/** The TOTP_ENCRYPTION_KEY of the test run's servers (scripts/test.js gives every test the same one). */
export const testTotpKey = () => decodeBase64(requireEnv('TOTP_ENCRYPTION_KEY'));

/** An admin with two-factor sign-in on (through the operator's functions, sealed as the API seals), not signed in yet. */
export async function createTotpAdmin(server: TestServer, db: Db): Promise<TotpAdmin> {
  const username = unique('admin');
  const password = 'admin-secret-1';
  const secret = new Secret({ size: 20 }).base32;
  const recoveryCodes = Array.from({ length: 10 }, (_, index) => `rcode-${index}${unique('x').slice(-6)}`);
  const [{ id }] = await db.begin(async (tx) => {
    await tx`set local role service_role`;
    const rows =
      await tx`select id from app.create_admin(${username}, ${hashPassword(password)}, ${'Admin'}, ${`${username}@example.com`})`;
    const salt = newRecoverySalt();
    await tx`select app.set_admin_totp(${username}, ${sealTotpSecret(testTotpKey(), rows[0].id, secret)},
                                       ${recoveryCodes.map((code) => recoveryCodeHash(code, salt))}, ${salt})`;
    return rows;
  });
  return { client: new Client(server.url), id, username, password, secret, recoveryCodes };
}

export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run admin:create [-- args]` against the test database, with `env` (ADMIN_USERNAME, …). */
export function adminCreate(env: Record<string, string>, args: string[] = []): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/admin-create.js', ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL'), ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
