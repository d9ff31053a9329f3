/**
 * Password hashing with scrypt (memory-hard, from node:crypto). Hashes are computed here, in the API,
 * never in SQL, and stored as `scrypt$N$r$p$salt$hash` (base64) so parameters can be raised later.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Limiter } from './limiter.ts';

type Scrypt = (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * Each scrypt hash takes 128 · N · r bytes (16 MiB here) of native memory on a thread of its own while it
 * runs. Logins and registrations come in bursts (a match starts): unbounded, 40 at once took 640 MiB in one
 * process. At most HASHES_AT_ONCE hashes run at once per process — about what its share of the cores can
 * compute anyway — and the others wait their turn; beyond HASHES_WAITING waiting, a sign-in is refused
 * with 503 and Retry-After (a few seconds' worth of hashes is already queued).
 */
export const HASHES_AT_ONCE = 2;
const HASHES_WAITING = 200;
export const hashing = new Limiter(HASHES_AT_ONCE, HASHES_WAITING);

const scryptAsync = promisify(scryptCallback) as Scrypt;
const scrypt: Scrypt = (...args) => hashing.run(() => scryptAsync(...args));

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const MAX_MEMORY = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAX_MEMORY });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Whether `password` matches `stored`. A stored value that is not a usable scrypt hash (a seed account's
 * disabled hash) is never a match, but is answered only after the same scrypt work against UNUSABLE_HASH,
 * so the answer takes as long as for a real account.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) {
    await verifyPassword(password, UNUSABLE_HASH);
    return false;
  }
  const key = await scrypt(password, parsed.salt, parsed.key.length, {
    N: parsed.n,
    r: parsed.r,
    p: parsed.p,
    maxmem: MAX_MEMORY,
  });
  return timingSafeEqual(key, parsed.key);
}

/** `scrypt$N$r$p$salt$key` with sane parameters, or null. */
function parseHash(stored: string) {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  const params = [Number(n), Number(r), Number(p)];
  if (scheme !== 'scrypt' || !salt || !expected || !params.every((x) => Number.isSafeInteger(x) && x > 0)) return null;
  const key = Buffer.from(expected, 'base64');
  if (key.length === 0) return null;
  return { n: params[0], r: params[1], p: params[2], salt: Buffer.from(salt, 'base64'), key };
}

/**
 * A hash that never matches, verified against when a username does not exist so that a login takes
 * the same time whether or not the account exists.
 */
export const UNUSABLE_HASH = `scrypt$${N}$${R}$${P}$AAAAAAAAAAAAAAAAAAAAAA==$${'A'.repeat(86)}==`;
