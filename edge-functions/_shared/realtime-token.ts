/**
 * A token for Supabase Realtime that names one of our players: a JSON Web Token (HS256) signed with the
 * project's JWT secret, with role `authenticated` and the player's `user_id`, the claim our RLS helper
 * app.current_user_id() reads. Realtime checks it when the player joins their private topic `user:{id}`,
 * whose policy (app.enable_result_topics) lets each player receive only their own results. Our sessions are
 * not Supabase Auth's, so the function mints these itself. They last 5 minutes and the SPA asks for a new one
 * before that (src/lib/supabase-realtime.ts): a token outlives the session it was given to by 5 minutes at
 * most, since a session that has ended gets none.
 */
import { createHmac } from 'node:crypto';
import { encodeBase64Url } from './base64url.ts';

const TOKEN_SECONDS = 300;
const encoder = new TextEncoder();
const part = (value: unknown) => encodeBase64Url(encoder.encode(JSON.stringify(value)));

export function realtimeToken(userId: number, secret: string, now = Date.now()): { token: string; expires_at: string } {
  const issuedAt = Math.floor(now / 1000);
  const expires = issuedAt + TOKEN_SECONDS;
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({
    role: 'authenticated',
    aud: 'authenticated',
    sub: String(userId),
    user_id: userId,
    iat: issuedAt,
    exp: expires,
  })}`;
  const signature = encodeBase64Url(new Uint8Array(createHmac('sha256', secret).update(unsigned).digest()));
  return { token: `${unsigned}.${signature}`, expires_at: new Date(expires * 1000).toISOString() };
}
