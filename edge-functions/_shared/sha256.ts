/**
 * SHA-256 of `text` (UTF-8) in hex: session tokens (api/session.ts), the ETags of public reads
 * (api/public-reads.ts), the request hash of idempotent writes (api/idempotency.ts), recovery codes
 * (second-factor.ts). Synchronous on purpose:
 * `crypto.subtle.digest` hands every call to a thread pool and back, a cost out of all proportion to hashing
 * a short token on every signed-in request.
 */
import { createHash } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
