/**
 * Checking a code offered for an account's second factor (at sign-in, and to prove a set-up), the same way
 * everywhere:
 *
 * - a browser that is not the owner's waits while ten wrong codes have locked the second factor (429, the
 *   database says how long: app.second_factor_wait, read with the credentials);
 * - the stored secret is opened with TOTP_ENCRYPTION_KEY (one kept in clear from before is sealed in the round
 *   trip that spends the code: app.seal_totp_secret);
 * - a wrong code of the authenticator, and a recovery code the database does not know, are recorded
 *   (app.record_wrong_code: the tenth in 15 minutes locks and is audited) before the refusal;
 * - a right one is spent in the round trip that acts on it (app.use_second_factor: a code works once).
 */
import { securityMessages } from '@/domain/account-security.ts';
import type { Sql } from '@shared/db.ts';
import { HttpError, toHttpError } from '@shared/errors.ts';
import { isSealed, offeredFactor, openTotpSecret, sealTotpSecret } from '@shared/second-factor.ts';
import { queryAs, type Ctx, type Statements } from './context.ts';
import { deviceId } from './device.ts';
import { clientIp } from './session.ts';

/** An account's second factor as the database answers it (app.get_credentials, app.begin_factor_check). */
export interface StoredFactor {
  user_id: number;
  /** sealed, or base32 in clear from before sealing */
  totp_secret: string;
  recovery_code_salt: string | null;
  /** seconds this browser waits before it may offer a code (the lock), or null */
  second_factor_wait: number | null;
}

/** How a route refuses a code: none offered, or a wrong one. */
export interface Refusals {
  missing: () => HttpError;
  wrong: () => HttpError;
}

export const TOTP_NOT_CONFIGURED = 'Two-factor sign-in is not configured on this server';

/** This server's TOTP_ENCRYPTION_KEY: without it no sealed secret can be read or made (503). */
export function totpKey(c: Ctx): Uint8Array {
  const key = c.get('config').totpEncryptionKey;
  if (!key) throw new HttpError(503, TOTP_NOT_CONFIGURED);
  return key;
}

/** The base32 secret of a stored one. */
export function openSecret(c: Ctx, userId: number, stored: string): string {
  return openTotpSecret(isSealed(stored) ? totpKey(c) : undefined, userId, stored);
}

/** Records a wrong code for the account, in a transaction of its own (it must stay when the request fails). */
async function recordWrongCode(c: Ctx, userId: number): Promise<void> {
  await queryAs(c, 'public', 'service', (q) => [
    q`select app.record_wrong_code(${userId}, ${clientIp(c)}, ${deviceId(c)})`,
  ]);
}

/**
 * Checks `code` against the account's second factor as far as the API can, and answers the statements that
 * spend it (and seal a secret kept in clear), for the round trip that acts on it (run it with spendCode).
 */
export async function checkCode(
  c: Ctx,
  stored: StoredFactor,
  code: string | undefined,
  refusals: Refusals,
): Promise<Statements> {
  if (!code) throw refusals.missing();
  if (stored.second_factor_wait !== null) {
    throw new HttpError(429, securityMessages.codesLocked, stored.second_factor_wait);
  }
  const secret = openSecret(c, stored.user_id, stored.totp_secret);
  const offered = offeredFactor(secret, stored.recovery_code_salt, code);
  if (offered.kind === 'missing') throw refusals.missing();
  if (offered.kind === 'wrong') {
    await recordWrongCode(c, stored.user_id);
    throw refusals.wrong();
  }
  const sealed = isSealed(stored.totp_secret) ? null : sealTotpSecret(totpKey(c), stored.user_id, secret);
  return (q: Sql) => [
    q`select app.use_second_factor(${stored.user_id}, ${offered.kind === 'totp' ? offered.step : null},
                                   ${offered.kind === 'recovery' ? offered.hash : null})`,
    ...(sealed ? [q`select app.seal_totp_secret(${stored.user_id}, ${stored.totp_secret}, ${sealed})`] : []),
  ];
}

/**
 * Runs the round trip that spends a code. A recovery code the database does not know is recorded as a wrong
 * code and refused like one; a code used before is refused as the database says.
 */
export async function spendCode<T>(c: Ctx, userId: number, refusals: Refusals, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (toHttpError(error)?.message !== securityMessages.invalidCode) throw error;
    await recordWrongCode(c, userId);
    throw refusals.wrong();
  }
}
