/**
 * Account security for every signed-in user: change the password, see and end their sessions, sign out
 * everywhere; and for admins, set up two-factor sign-in (TOTP). The rules live in the database
 * (supabase/schemas/10_identity.sql): a new password or second factor ends the user's other sessions there, and
 * sessions are named by a public id (the token's hash never leaves the database).
 *
 * A password change proves the current password first, rate limited like a sign-in of the user's name (a
 * stolen session may not guess it faster): two round trips with the password work between, like a login.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ADMIN_PASSWORD_MIN, securityMessages } from '../../../src/domain/account-security.ts';
import {
  changePasswordSchema,
  recoveryCodesEntity,
  sessionEntity,
  totpCodeSchema,
  twoFactorSetupEntity,
  twoFactorStatusEntity,
} from '../../../src/domain/account-security-schemas.ts';
import { HttpError } from '../../_shared/errors.ts';
import { hashPassword, verifyPassword } from '../../_shared/password.ts';
import {
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  totpUri,
  verifiedStep,
} from '../../_shared/second-factor.ts';
import { answer, query } from '../context.ts';
import { deviceId } from '../device.ts';
import { errors, idParams, json, jsonBody, messageEntity, router, signedIn } from '../openapi.ts';
import { clearSessionCookie, clientIp } from '../session.ts';

const tags = ['account: security'];

const passwordRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'post',
  path: '/account/password',
  tags,
  summary:
    "Change the password (the current one first; an administrator's at least 12 characters); every other session of the user ends",
  request: { body: jsonBody(changePasswordSchema) },
  responses: { 200: json(messageEntity, 'Password changed'), ...errors(400, 401, 429) },
});

const sessionsRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'get',
  path: '/account/sessions',
  tags,
  summary: "The user's open sessions, most recently used first",
  responses: { 200: json(z.array(sessionEntity), "Sessions (the request's own is `current`)"), ...errors(401) },
});

const endSessionRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'delete',
  path: '/account/sessions/{id}',
  tags,
  summary: "End one of the user's sessions",
  request: { params: idParams },
  responses: { 200: json(messageEntity, 'Session ended'), ...errors(400, 401, 404) },
});

const logoutAllRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'post',
  path: '/logout-all',
  tags,
  summary: 'Sign out everywhere: every session of the user ends, this one included',
  responses: { 200: json(messageEntity, 'Signed out everywhere'), ...errors(401) },
});

const twoFactorRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'get',
  path: '/account/two-factor',
  tags,
  summary: 'Two-factor sign-in: on or off, required, recovery codes left',
  responses: { 200: json(twoFactorStatusEntity, "The user's two-factor sign-in"), ...errors(401) },
});

const setUpRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'post',
  path: '/account/two-factor',
  tags,
  summary: 'Admins: start setting up two-factor sign-in (a new secret, confirmed by a code from it)',
  responses: { 201: json(twoFactorSetupEntity, 'The secret and its otpauth:// URI'), ...errors(401, 403) },
});

const confirmRoute = createRoute({
  middleware: [signedIn] as const,
  method: 'post',
  path: '/account/two-factor/confirm',
  tags,
  summary: 'Admins: confirm the set-up with a code; answers ten one-time recovery codes, shown this once',
  request: { body: jsonBody(totpCodeSchema) },
  responses: { 201: json(recoveryCodesEntity, 'Two-factor sign-in is on'), ...errors(400, 401, 403, 409) },
});

export function accountSecurityRoutes() {
  const app = router();

  app.openapi(passwordRoute, async (c) => {
    const { current_password: current, new_password: next } = c.req.valid('json');
    const [[check], [caller]] = await query(c, 'user', 'service', (q) => [
      q`select attempt_id, password_hash from app.begin_password_check(${clientIp(c)}, ${deviceId(c)})`,
      q`select u.role from public.users u where u.id = app.current_user_id()`,
    ]);
    if (!(await verifyPassword(current, check.password_hash))) {
      throw new HttpError(400, securityMessages.currentPasswordIncorrect); // the attempt stays a failure
    }
    if (caller.role === 'admin' && next.length < ADMIN_PASSWORD_MIN) {
      // the current password was right: no guess to count
      await query(c, 'user', 'service', (q) => [q`select app.finish_attempt(${check.attempt_id}, true)`]);
      throw new HttpError(400, securityMessages.adminPasswordTooShort);
    }
    const passwordHash = await hashPassword(next);
    await query(c, 'user', 'service', (q) => [
      q`select app.finish_attempt(${check.attempt_id}, true)`,
      q`select app.change_password(${passwordHash})`,
    ]);
    return c.json({ message: securityMessages.passwordChanged }, 200);
  });

  app.openapi(sessionsRoute, (c) =>
    answer(c, 'user', 'service', (q) => q`select app.account_sessions()::text as body`),
  );

  app.openapi(endSessionRoute, async (c) => {
    const { id } = c.req.valid('param');
    const [[ended]] = await query(c, 'user', 'service', (q) => [q`select app.end_session(${id}) as current`]);
    if (ended.current) clearSessionCookie(c);
    return c.json({ message: 'Session ended' }, 200);
  });

  app.openapi(logoutAllRoute, async (c) => {
    await query(c, 'user', 'service', (q) => [q`select app.end_all_sessions()`]);
    clearSessionCookie(c);
    return c.json({ message: 'Signed out everywhere' }, 200);
  });

  app.openapi(twoFactorRoute, (c) => {
    const required = c.get('config').adminMfa === 'required';
    return answer(c, 'user', 'service', (q) => q`select app.totp_status(${required})::text as body`);
  });

  app.openapi(setUpRoute, async (c) => {
    const secret = newTotpSecret();
    const [[started]] = await query(c, 'user', 'service', (q) => [
      q`select app.begin_totp_enrolment(${secret}) as username`,
    ]);
    return c.json({ secret, uri: totpUri(secret, started.username) }, 201);
  });

  app.openapi(confirmRoute, async (c) => {
    const { code } = c.req.valid('json');
    const [[pending]] = await query(c, 'user', 'service', (q) => [q`select app.pending_totp_secret() as secret`]);
    const step = verifiedStep(pending.secret, code);
    if (step === null) throw new HttpError(400, securityMessages.invalidCode);
    const codes = newRecoveryCodes();
    await query(c, 'user', 'service', (q) => [
      q`select app.confirm_totp_enrolment(${pending.secret}, ${step}, ${codes.map(recoveryCodeHash)})`,
    ]);
    return c.json({ recovery_codes: codes }, 201);
  });

  return app;
}
