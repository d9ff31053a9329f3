/**
 * Sessions: 32 random bytes in the `session` cookie (HttpOnly; SameSite=Lax; Path=/;
 * Secure over https); only the SHA-256 (hex) of the token is stored, in app.sessions. The database decides
 * how long a session lasts (idle timeout by role, 30 days at most: app.session_expiry) and resolves it in
 * the same round trip as the route's work (context.ts, app.authenticate).
 */
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from 'hono/deno';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { encodeBase64Url } from '../_shared/base64url.ts';
import { sha256Hex } from '../_shared/sha256.ts';
import type { AppEnv, Ctx } from './context.ts';

export const SESSION_COOKIE = 'session';
/** base64url of 32 bytes is 43 characters; anything else is not one of our tokens. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The entry a trusted proxy appended to a comma-separated forwarding header: the right-most one. */
function lastHop(header: string | undefined): string | undefined {
  return header?.split(',').map((entry) => entry.trim()).filter(Boolean).at(-1);
}

/**
 * Whether the client reached us over https (the cookie's Secure flag). X-Forwarded-Proto is believed only
 * behind a trusted proxy (config.trustProxy), like X-Forwarded-For.
 */
export function isHttps(c: Ctx): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return c.get('config').trustProxy && lastHop(c.req.header('x-forwarded-proto'))?.toLowerCase() === 'https';
}

/** Reads the session cookie into `tokenHash` (null when absent or not shaped like one of our tokens). */
export const readSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = getCookie(c, SESSION_COOKIE);
  c.set('tokenHash', token && TOKEN_SHAPE.test(token) ? sha256Hex(token) : null);
  c.set('access', 'public');
  c.set('userId', null);
  await next();
};

export interface NewSession {
  token: string;
  tokenHash: string;
}

/** A fresh session token; the caller stores its hash (app.create_session) and then sets the cookie. */
export function newSession(): NewSession {
  const token = encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  return { token, tokenHash: sha256Hex(token) };
}

/** Sets the cookie of a session the database has stored, kept by the browser until the session's latest end. */
export function setSessionCookie(c: Ctx, session: NewSession, endsBy: Date): void {
  setCookie(c, SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: isHttps(c),
    expires: endsBy,
    maxAge: Math.max(0, Math.floor((endsBy.getTime() - Date.now()) / 1000)),
  });
}

export function clearSessionCookie(c: Ctx): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c) });
}

/**
 * The client's IP for rate limiting: behind a trusted proxy (config.trustProxy, e.g. Supabase's edge) the
 * RIGHT-most entry of X-Forwarded-For, the address our proxy appended (everything left of it comes from
 * the client, who could invent it); otherwise the connection's remote address, since a client that reaches
 * us directly could forge the header. Null when neither is known.
 */
export function clientIp(c: Ctx): string | null {
  const forwarded = c.get('config').trustProxy ? lastHop(c.req.header('x-forwarded-for')) : undefined;
  if (forwarded) return forwarded.slice(0, 64);
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // no connection info (e.g. app.request in-process)
  }
}
