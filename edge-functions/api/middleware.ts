/**
 * Cross-cutting behaviour of every /api request: one JSON log line, security headers, who may keep the
 * answer, body size limit, CSRF origin check on writes, and the error shape `{"message": …}`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { HTTPException } from 'hono/http-exception';
import { HttpError, SERVICE_UNAVAILABLE, toHttpError } from '@shared/errors.ts';
import { PRIVATE_CACHE_CONTROL } from '@/domain/live-updates.ts';

export const MAX_BODY_BYTES = 64 * 1024;

/** One line per request: method, route, status, ms and the user id. Never bodies, tokens or cookies. */
export const requestLog: MiddlewareHandler = async (c, next) => {
  const started = performance.now();
  await next();
  console.log(
    JSON.stringify({
      level: c.res.status >= 500 ? 'error' : 'info',
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
      user_id: c.get('userId' as never) ?? null,
    }),
  );
};

/** `overwrite: false`: a route may set a stricter or page-specific header itself (the sandbox gateway page). */
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  xFrameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
  overwrite: false,
});

/**
 * Every answer is private to its caller and kept by no cache (`private, no-store`: sessions, balances, bets,
 * errors, the live stream), except the public match reads that say `Cache-Control: public` themselves
 * (public-reads.ts) — and never one that sets a cookie. One rule for every route, so a new route cannot
 * forget it.
 */
export const privateByDefault: MiddlewareHandler = async (c, next) => {
  await next();
  const shared = c.res.headers.get('cache-control')?.startsWith('public,') && !c.res.headers.has('set-cookie');
  if (!shared) c.res.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
};

export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new HttpError(413, 'Request body too large');
  },
});

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF: refuse a write that a browser made from another site's page. Modern browsers say where the page is
 * (Sec-Fetch-Site) relative to the URL they requested: behind a static host that rewrites /api to this
 * function that URL is the host's, so `same-origin` is right although our own URL (the function's) differs
 * from the page's Origin. Browsers without Fetch Metadata: Origin must be our own. Requests with neither
 * header are not from a browser (the payment webhook) and carry no ambient cookie risk that the
 * SameSite=Lax cookie does not already cover. The same rule as Go's net/http CrossOriginProtection.
 */
export const sameOriginWrites: MiddlewareHandler = async (c, next) => {
  if (UNSAFE_METHODS.has(c.req.method) && !fromOwnSite(c)) throw new HttpError(403, 'Cross-origin request refused');
  await next();
};

function fromOwnSite(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  // `none`: the user's own action (typed address, bookmark), not a page's
  if (site) return site === 'same-origin' || site === 'none';
  const origin = c.req.header('origin');
  return !origin || origin === new URL(c.req.url).origin;
}

export const MALFORMED_JSON = 'Malformed JSON body';

export function handleError(error: Error, c: Context) {
  let known = toHttpError(error);
  // A read whose answer never came changed nothing the caller asked for: it is simply unavailable.
  if (known?.status === 504 && c.req.method === 'GET')
    known = new HttpError(503, SERVICE_UNAVAILABLE, known.retryAfter);
  if (known) {
    if (known.retryAfter !== undefined) c.header('Retry-After', String(known.retryAfter));
    return c.json({ message: known.message, ...known.fields }, known.status as 400);
  }
  // Hono's own refusals: the JSON validator (malformed body), the media-type gate (415), etc.
  if (error instanceof HTTPException && error.status < 500) {
    const message = /malformed json/i.test(error.message) ? MALFORMED_JSON : error.message || 'Bad request';
    return c.json({ message }, error.status);
  }
  console.error(JSON.stringify({ level: 'error', route: c.req.routePath, error: String(error?.stack ?? error) }));
  return c.json({ message: 'Internal server error' }, 500);
}
