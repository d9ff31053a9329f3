/**
 * Two-factor sign-in: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps) through the `otpauth` library, and
 * one-time recovery codes. The secret is kept in the database (app.credentials); recovery codes only as
 * SHA-256 hashes. The database refuses a time step not newer than the last one used, so a code never
 * works twice (app.use_second_factor).
 */
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
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

/** What `code` (the authenticator's 6 digits or a recovery code) offers against `secret`. */
export function offeredFactor(secret: string, code: string | undefined): OfferedFactor {
  if (!code) return { kind: 'missing' };
  if (!TOTP_CODE.test(code)) return { kind: 'recovery', hash: recoveryCodeHash(code) };
  const step = verifiedStep(secret, code);
  return step === null ? { kind: 'wrong' } : { kind: 'totp', step };
}

/** Ten new recovery codes, shown once: `xxxxx-xxxxx`, about 49 bits each. */
export function newRecoveryCodes(): string[] {
  const part = () => Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}`);
}

/** What the database keeps of a recovery code: the SHA-256 of it without spaces or dashes, lower case. */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(code.replace(/[\s-]/g, '').toLowerCase());
}
