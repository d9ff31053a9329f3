/**
 * Sessions: 32 random bytes in the `session` cookie (HttpOnly; SameSite=Lax; Path=/;
 * Secure over https); only the SHA-256 (hex) of the token is stored, in app.sessions. The database decides
 * how long a session lasts (idle timeout by role, 30 days at most: app.session_expiry) and resolves it in
 * the same round trip as the route's work (context.ts, app.authenticate).
 */
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from 'hono/deno';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { encodeBase64Url } from '@shared/base64url.ts';
import { sameSecret } from '@shared/hmac.ts';
import { sha256Hex } from '@shared/sha256.ts';
import type { AppEnv, Ctx } from './context.ts';

export const SESSION_COOKIE = 'session';
/** base64url of 32 bytes is 43 characters; anything else is not one of our tokens. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const entries = (header: string | undefined) =>
  header
    ?.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean) ?? [];

/** The header with which the proxy in front of us shows it forwarded the request (it adds PROXY_SECRET). */
export const PROXY_SECRET_HEADER = 'x-proxy-secret';

/**
 * How many proxies in front of us to believe for this request: config.trustProxyHops when the request
 * carries X-Proxy-Secret equal to PROXY_SECRET (the static host's rewrite adds it), else none. A caller who
 * reaches the function's own URL directly could write any X-Forwarded-For; without the secret the address
 * of the connection is the client, however many proxies are configured.
 */
function trustedHops(c: Ctx): number {
  const { trustProxyHops, proxySecret } = c.get('config');
  if (trustProxyHops === 0 || proxySecret === undefined) return 0;
  const shown = c.req.header(PROXY_SECRET_HEADER);
  return shown !== undefined && sameSecret(shown, proxySecret) ? trustProxyHops : 0;
}

/**
 * Whether the client reached us over https (the cookie's Secure flag). X-Forwarded-Proto (its right-most
 * entry: what the proxy next to us saw or was told by the one before) is believed only behind trusted proxies
 * (trustedHops), like X-Forwarded-For.
 */
export function isHttps(c: Ctx): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustedHops(c) > 0 && entries(c.req.header('x-forwarded-proto')).at(-1)?.toLowerCase() === 'https';
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
 * The client's IP for rate limiting. Behind N trusted proxies (trustedHops: e.g. a static host's /api
 * rewrite, then Supabase's edge) each appended the address it saw to X-Forwarded-For, so the N-th entry
 * from the right is the one the farthest proxy appended: the client's. Entries left of it come from the
 * client, who could invent them; with fewer entries than proxies the left-most is still one a proxy wrote.
 * Without trusted proxies: the connection's remote address, since a client that reaches us directly could
 * forge the header. Null when neither is known.
 */
export function clientIp(c: Ctx): string | null {
  const hops = trustedHops(c);
  const forwarded = hops > 0 ? entries(c.req.header('x-forwarded-for')) : [];
  if (forwarded.length > 0) return forwarded[Math.max(0, forwarded.length - hops)].slice(0, 64);
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // no connection info (e.g. app.request in-process)
  }
}
