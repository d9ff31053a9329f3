/**
 * Two-factor sign-in: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps) through the `otpauth` library, and
 * one-time recovery codes. The database refuses a time step not newer than the last one used, so a code never
 * works twice (app.use_second_factor).
 *
 * At rest: the secret is sealed here, before it reaches the database (app.credentials), with AES-256-GCM under
 * TOTP_ENCRYPTION_KEY and the user's id as associated data (a sealed secret moved to another account does not
 * open); the database only checks the form (app.is_sealed_secret). Recovery codes are kept as HMAC-SHA256
 * under a random salt of the user's own. Accounts set up before either keep a base32 secret in clear (sealed
 * at its next use) and SHA-256 codes (they keep working until the admin sets the second factor up again).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { decodeBase64, encodeBase64Url } from './base64url.ts';
import { sha256Hex } from './sha256.ts';

/** The authenticator's issuer: how the account is listed in the app. */
export const TOTP_ISSUER = 'Cricket League';
const DIGITS = 6;
const PERIOD_SECONDS = 30;
/** A code from the step before or after the current one is accepted too (clocks drift; typing takes time). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits no one confuses (no 0/O, 1/I/L). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export const TOTP_CODE = /^\d{6}$/;

function totp(secret: string, username: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** Whether `secret` is a usable base32 secret (the database accepts 16 to 64 base32 characters). */
export function isTotpSecret(secret: string): boolean {
  return /^[A-Z2-7]{16,64}$/.test(secret);
}

/** The `otpauth://totp/…` URI an authenticator app reads (from a QR code or pasted). */
export function totpUri(secret: string, username: string): string {
  return totp(secret, username).toString();
}

/**
 * The time step (counter) of `code` if it is a valid code for `secret` now, else null. The database
 * accepts each step once.
 */
export function verifiedStep(secret: string, code: string, now = Date.now()): number | null {
  if (!TOTP_CODE.test(code)) return null;
  const delta = totp(secret, '').validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
}

/** A second factor offered with a request, as far as the API can check it (the database spends it once). */
export type OfferedFactor =
  | { kind: 'missing' }
  | { kind: 'wrong' }
  /** a TOTP code valid now: its time step (app.use_second_factor refuses a step not newer than the last) */
  | { kind: 'totp'; step: number }
  /** anything else is taken for a recovery code, which only the database can check */
  | { kind: 'recovery'; hash: string };

/**
 * What `code` (the authenticator's 6 digits or a recovery code) offers against `secret` (base32) and the
 * user's recovery codes (hashed under `salt`).
 */
export function offeredFactor(secret: string, salt: string | null, code: string | undefined): OfferedFactor {
  if (!code) return { kind: 'missing' };
  if (!TOTP_CODE.test(code)) return { kind: 'recovery', hash: recoveryCodeHash(code, salt) };
  const step = verifiedStep(secret, code);
  return step === null ? { kind: 'wrong' } : { kind: 'totp', step };
}

/** Ten new recovery codes, shown once: `xxxxx-xxxxx`, about 49 bits each. */
export function newRecoveryCodes(): string[] {
  const part = () => Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}`);
}

/** A new salt for a user's recovery codes: 16 random bytes, hex. */
export function newRecoverySalt(): string {
  return randomBytes(16).toString('hex');
}

/**
 * What the database keeps of a recovery code, as typed with spaces or dashes and in any case: HMAC-SHA256
 * under the user's salt, or, for codes set up before salts (`salt` null), its SHA-256.
 */
export function recoveryCodeHash(code: string, salt: string | null): string {
  const normalised = code.replace(/[\s-]/g, '').toLowerCase();
  return salt === null ? sha256Hex(normalised) : createHmac('sha256', salt).update(normalised).digest('hex');
}

const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43,})$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binds a sealed secret to its account: it opens only for the user it was sealed for. */
const associatedData = (userId: number) => Buffer.from(`totp:${userId}`);

/** Whether a stored secret is sealed (else it is a base32 one kept in clear from before sealing). */
export function isSealed(stored: string): boolean {
  return SEALED.test(stored);
}

/** `secret` (base32) sealed for user `userId`: `v1.<IV>.<ciphertext and tag>`, base64url. */
export function sealTotpSecret(key: Uint8Array, userId: number, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(associatedData(userId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${encodeBase64Url(iv)}.${encodeBase64Url(sealed)}`;
}

/**
 * The base32 secret a stored one holds: opened with `key` when sealed (throws when it was sealed under
 * another key or for another user), as it is when kept in clear from before.
 */
export function openTotpSecret(key: Uint8Array | undefined, userId: number, stored: string): string {
  const match = SEALED.exec(stored);
  if (!match) return stored;
  if (!key) throw new Error('TOTP_ENCRYPTION_KEY is not set: two-factor secrets cannot be read');
  const sealed = decodeBase64(match[2]);
  const decipher = createDecipheriv('aes-256-gcm', key, decodeBase64(match[1])).setAAD(associatedData(userId));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
