/**
 * Second factors at rest, as the API keeps them: a secret sealed with AES-256-GCM under TOTP_ENCRYPTION_KEY
 * opens only with that key and only for the user it was sealed for; recovery codes are HMACs under the user's
 * salt; what was kept before (a base32 secret in clear, SHA-256 codes) still reads. And the key is required
 * where the function faces the internet.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../edge-functions/_shared/config.ts';
import {
  isSealed,
  newRecoverySalt,
  newTotpSecret,
  openTotpSecret,
  recoveryCodeHash,
  sealTotpSecret,
} from '../../edge-functions/_shared/second-factor.ts';

const key = new Uint8Array(randomBytes(32));

describe('a sealed two-factor secret', () => {
  it('holds nothing of the secret, and opens with the key for its user only', () => {
    const secret = newTotpSecret();
    const sealed = sealTotpSecret(key, 42, secret);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43,}$/);
    expect(sealed).not.toContain(secret);
    expect(sealTotpSecret(key, 42, secret)).not.toBe(sealed); // a new IV each time
    expect(isSealed(sealed)).toBe(true);
    expect(openTotpSecret(key, 42, sealed)).toBe(secret);
    // moved to another account in the database, or read with another key: it does not open
    expect(() => openTotpSecret(key, 43, sealed)).toThrow();
    expect(() => openTotpSecret(new Uint8Array(randomBytes(32)), 42, sealed)).toThrow();
    expect(() => openTotpSecret(undefined, 42, sealed)).toThrow('TOTP_ENCRYPTION_KEY is not set');
  });

  it('a secret kept in clear from before sealing reads as it is (it is sealed at its next use)', () => {
    expect(isSealed('JBSWY3DPEHPK3PXPJBSWY3DP')).toBe(false);
    expect(openTotpSecret(undefined, 42, 'JBSWY3DPEHPK3PXPJBSWY3DP')).toBe('JBSWY3DPEHPK3PXPJBSWY3DP');
  });
});

describe('recovery codes at rest', () => {
  it("are HMAC-SHA256 under the user's salt, however the code is typed; codes from before stay SHA-256", () => {
    const salt = newRecoverySalt();
    expect(salt).toMatch(/^[0-9a-f]{32}$/);
    const hmac = createHmac('sha256', salt).update('abcdefghjk').digest('hex');
    expect(recoveryCodeHash('abcde-fghjk', salt)).toBe(hmac);
    expect(recoveryCodeHash(' ABCDE fghjk ', salt)).toBe(hmac);
    expect(recoveryCodeHash('abcde-fghjk', newRecoverySalt())).not.toBe(hmac); // the same code, another user
    expect(recoveryCodeHash('abcde-fghjk', null)).toBe(createHash('sha256').update('abcdefghjk').digest('hex'));
  });
});

describe('TOTP_ENCRYPTION_KEY', () => {
  const supabase = { SUPABASE_DB_URL: 'postgresql://db.example.supabase.co/postgres', DEVICE_COOKIE_SECRET: 'k' };
  const from = (vars: Record<string, string>) => readConfig((name) => vars[name]);

  it('is required on Supabase: the function refuses to start without it, naming it', () => {
    expect(() => from(supabase)).toThrow(/^TOTP_ENCRYPTION_KEY is not set: on Supabase/);
  });

  it('is 32 bytes in base64 (as `openssl rand -base64 32` prints them), or refused', () => {
    const text = randomBytes(32).toString('base64');
    expect(from({ ...supabase, TOTP_ENCRYPTION_KEY: text }).config.totpEncryptionKey).toEqual(
      new Uint8Array(Buffer.from(text, 'base64')),
    );
    for (const bad of ['short', randomBytes(16).toString('base64'), 'not base64 at all!'])
      expect(() => from({ TOTP_ENCRYPTION_KEY: bad })).toThrow('TOTP_ENCRYPTION_KEY must be 32 bytes in base64');
    expect(from({}).config.totpEncryptionKey).toBeUndefined(); // locally npm start gives one (README)
  });
});
