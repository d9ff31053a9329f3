/** HMAC-SHA256 signatures (the device cookie), synchronous like sha256.ts, and a constant-time comparison. */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `text` under `key`, base64url. */
export function hmacBase64Url(key: string, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

/** Whether two strings are equal, in a time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
