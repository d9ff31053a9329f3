/**
 * The device cookie: a random id signed with DEVICE_COOKIE_SECRET (HMAC-SHA256), given to a browser when it
 * signs in and kept 400 days (the longest a browser keeps a cookie). The database remembers which users
 * signed in from which device (app.create_session → app.user_devices), and the rate limits spare a browser
 * that has signed in as a user from the failures others make for that username (app.check_attempt). The
 * signature means only this server makes ids: a client cannot offer one it did not get from us.
 */
import { getCookie, setCookie } from 'hono/cookie';
import { encodeBase64Url } from '@shared/base64url.ts';
import { hmacBase64Url, sameSecret } from '@shared/hmac.ts';
import type { Ctx } from './context.ts';
import { isHttps } from './session.ts';

export const DEVICE_COOKIE = 'device';
const DEVICE_COOKIE_DAYS = 400;
/** base64url of 16 random bytes, a dot, base64url of the 32-byte HMAC. */
const COOKIE_SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** The device id of the request's cookie when its signature is ours, else null. */
export function deviceId(c: Ctx): string | null {
  const match = COOKIE_SHAPE.exec(getCookie(c, DEVICE_COOKIE) ?? '');
  if (!match) return null;
  const [, id, signature] = match;
  return sameSecret(signature, hmacBase64Url(c.get('config').deviceCookieSecret, id)) ? id : null;
}

/** The request's device id, or a new one: what a sign-in records (and then sets with setDeviceCookie). */
export function signInDevice(c: Ctx): string {
  return deviceId(c) ?? encodeBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/** (Re)sets the device cookie after a sign-in, for another 400 days. Only the API reads it. */
export function setDeviceCookie(c: Ctx, id: string): void {
  setCookie(c, DEVICE_COOKIE, `${id}.${hmacBase64Url(c.get('config').deviceCookieSecret, id)}`, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/api',
    secure: isHttps(c),
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
  });
}
