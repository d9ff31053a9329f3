/**
 * Account security (/api/account) for every signed-in user: change the password, see and end their
 * sessions; and for admins, set up two-factor sign-in (TOTP). The rules live in the database
 * (supabase/schemas/11_credentials.sql, 12_sessions.sql): a new password or second factor ends the user's other sessions there and
 * gives this one a new token (the answer sets the new cookie; a copy of the old one stops working), and
 * sessions are named by a public id (the token's hash never leaves the database).
 *
 * What a stolen session lacks is asked for again, rate limited like a sign-in of the user's name (a stolen
 * session may not guess any faster than a stranger): the current password for a password change; the
 * password and, when the admin has one, a code of the current second factor for starting or confirming a
 * new one. Two round trips with the password work between, like a login.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ADMIN_PASSWORD_MIN, securityMessages } from '@/domain/account-security.ts';
import {
  changePasswordSchema,
  confirmTwoFactorSchema,
  recoveryCodesEntity,
  sessionEntity,
  twoFactorProofSchema,
  twoFactorSetupEntity,
  twoFactorStatusEntity,
  type TwoFactorProof,
} from '@/domain/account-security-schemas.ts';
import type { Rows, Sql, Statement } from '@shared/db.ts';
import { HttpError, refusalOf } from '@shared/errors.ts';
import { hashPassword, verifyPassword } from '@shared/password.ts';
import {
  newRecoveryCodes,
  newRecoverySalt,
  newTotpSecret,
  recoveryCodeHash,
  sealTotpSecret,
  totpUri,
  verifiedStep,
} from '@shared/second-factor.ts';
import { checkCode, openSecret, spendCode, totpKey, type Refusals, type StoredFactor } from '../code-check.ts';
import { answer, query, type Ctx, type Statements } from '../context.ts';
import { deviceId } from '../device.ts';
import { errors, idParams, json, jsonBody, messageEntity, router } from '../openapi.ts';
import { clearSessionCookie, clientIp, newSession, setSessionCookie } from '../session.ts';

const tags = ['account: security'];

const passwordRoute = createRoute({
  operationId: 'changePassword',
  method: 'post',
  path: '/password',
  tags,
  summary:
    "Change the password (the current one first; an administrator's at least 12 characters); every other session of the user ends",
  request: {
    body: jsonBody(changePasswordSchema, { current_password: 'correct-horse', new_password: 'battery-staple' }),
  },
  responses: { 200: json(messageEntity, 'Password changed'), ...errors(400, 401, 429) },
});

const sessionsRoute = createRoute({
  operationId: 'listSessions',
  method: 'get',
  path: '/sessions',
  tags,
  summary: "The user's open sessions, most recently used first",
  responses: { 200: json(z.array(sessionEntity), "Sessions (the request's own is `current`)"), ...errors(401) },
});

const endSessionRoute = createRoute({
  operationId: 'endSession',
  method: 'delete',
  path: '/sessions/{id}',
  tags,
  summary: "End one of the user's sessions",
  request: { params: idParams },
  responses: { 200: json(messageEntity, 'Session ended'), ...errors(400, 401, 404) },
});

const twoFactorRoute = createRoute({
  operationId: 'getTwoFactor',
  method: 'get',
  path: '/two-factor',
  tags,
  summary: 'Two-factor sign-in: on or off, required, recovery codes left',
  responses: { 200: json(twoFactorStatusEntity, "The user's two-factor sign-in"), ...errors(401) },
});

const setUpRoute = createRoute({
  operationId: 'setUpTwoFactor',
  method: 'post',
  path: '/two-factor',
  tags,
  summary:
    'Admins: start setting up two-factor sign-in (a new secret, confirmed by a code from it); needs the password and, ' +
    'when one is on, a code of the current second factor',
  request: { body: jsonBody(twoFactorProofSchema, { current_password: 'correct-horse' }) },
  responses: {
    201: json(twoFactorSetupEntity, 'The secret and its otpauth:// URI'),
    ...errors(400, 401, 403, 429),
  },
});

const confirmRoute = createRoute({
  operationId: 'confirmTwoFactor',
  method: 'post',
  path: '/two-factor/confirm',
  tags,
  summary:
    'Admins: confirm the set-up with a code and the same proof as its start; answers ten one-time recovery codes, ' +
    'shown this once, and a new session cookie',
  request: { body: jsonBody(confirmTwoFactorSchema, { code: '123456', current_password: 'correct-horse' }) },
  responses: {
    201: json(recoveryCodesEntity, 'Two-factor sign-in is on'),
    ...errors(400, 401, 403, 409, 429),
  },
});

/** What app.begin_factor_check answers: what the owner must prove. */
interface FactorCheck extends Omit<StoredFactor, 'totp_secret'> {
  password_hash: string;
  /** the current second factor's secret; null when none is on */
  totp_secret: string | null;
}

/** A set-up's proof without a valid code of the current second factor: 401, however it failed. */
const PROOF_REFUSALS: Refusals = {
  missing: () => new HttpError(401, securityMessages.mfaRequired),
  wrong: () => new HttpError(401, securityMessages.mfaRequired),
};

/**
 * The outcome of the caller's re-check (password, and second factor), recorded as a sign-in attempt of their
 * username (app.finish_password_check): a failure in a transaction of its own before its refusal is told
 * (or a 429, when the limits no longer allow telling it); a success in the transaction that makes the change.
 */
const recordCheck = (c: Ctx, success: boolean) => (q: Sql) =>
  q`select app.finish_password_check(${clientIp(c)}, ${deviceId(c)}, ${success})`;

async function failedCheck(c: Ctx, refusal: HttpError): Promise<never> {
  await query(c, 'service', (q) => [recordCheck(c, false)(q)]);
  throw refusal;
}

/**
 * Checks the owner's proof for a second-factor set-up as far as the API can: 400 for a wrong password, 401
 * without a valid code of the current second factor (when there is one), each recorded as a failed sign-in.
 * Returns the statements that spend the code and record the check's success, for the round trip that makes
 * the change.
 */
async function proveOwner(c: Ctx, check: FactorCheck, proof: TwoFactorProof): Promise<Statements> {
  if (!(await verifyPassword(proof.current_password, check.password_hash))) {
    return failedCheck(c, new HttpError(400, securityMessages.currentPasswordIncorrect));
  }
  let spend: Statements = () => [];
  try {
    if (check.totp_secret !== null) {
      spend = await checkCode(c, { ...check, totp_secret: check.totp_secret }, proof.totp_code, PROOF_REFUSALS);
    }
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return failedCheck(c, refusal);
  }
  return (q: Sql) => [recordCheck(c, true)(q), ...spend(q)];
}

/**
 * Runs the round trip that makes a proven change: the proof's statements, then the change's. A code the
 * database refuses there (used before, an unknown recovery code) makes the check a failed one.
 */
function afterProof(c: Ctx, check: FactorCheck, proof: Statements, change: (q: Sql) => Statement): Promise<Rows> {
  return spendCode(c, check.user_id, PROOF_REFUSALS, async () => {
    try {
      return (await query(c, 'service', (q) => [...proof(q), change(q)])).at(-1)!;
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal || refusal.status === 429) throw error;
      return failedCheck(c, refusal);
    }
  });
}

export function accountSecurityRoutes() {
  const app = router('user');

  app.openapi(passwordRoute, async (c) => {
    const { current_password: current, new_password: next } = c.req.valid('json');
    const [[check], [caller]] = await query(c, 'service', (q) => [
      q`select app.begin_password_check(${clientIp(c)}, ${deviceId(c)}) as password_hash`,
      q`select u.role from public.users u where u.id = app.current_user_id()`,
    ]);
    if (!(await verifyPassword(current, check.password_hash))) {
      return failedCheck(c, new HttpError(400, securityMessages.currentPasswordIncorrect));
    }
    if (caller.role === 'admin' && next.length < ADMIN_PASSWORD_MIN) {
      // the current password was right: no guess to count
      await query(c, 'service', (q) => [recordCheck(c, true)(q)]);
      throw new HttpError(400, securityMessages.adminPasswordTooShort);
    }
    const passwordHash = await hashPassword(next);
    const session = newSession();
    const [, [changed]] = await query(c, 'service', (q) => [
      recordCheck(c, true)(q),
      q`select app.change_password(${passwordHash}, ${session.tokenHash}) as ends_by`,
    ]);
    setSessionCookie(c, session, new Date(changed.ends_by as string));
    return c.json({ message: securityMessages.passwordChanged }, 200);
  });

  app.openapi(sessionsRoute, (c) =>
    answer<typeof sessionsRoute>(c, 'service', (q) => q`select app.account_sessions()::text as body`),
  );

  app.openapi(endSessionRoute, async (c) => {
    const { id } = c.req.valid('param');
    const [[ended]] = await query(c, 'service', (q) => [q`select app.end_session(${id}) as current`]);
    if (ended.current) clearSessionCookie(c);
    return c.json({ message: 'Session ended' }, 200);
  });

  app.openapi(twoFactorRoute, (c) => {
    const required = c.get('config').adminMfa === 'required';
    return answer<typeof twoFactorRoute>(c, 'service', (q) => q`select app.totp_status(${required})::text as body`);
  });

  app.openapi(setUpRoute, async (c) => {
    const [[row]] = await query(c, 'service', (q) => [
      q`select * from app.begin_factor_check(${clientIp(c)}, ${deviceId(c)})`,
    ]);
    const check = row as unknown as FactorCheck;
    const proof = await proveOwner(c, check, c.req.valid('json'));
    const secret = newTotpSecret();
    const sealed = sealTotpSecret(totpKey(c), check.user_id, secret);
    const [started] = await afterProof(
      c,
      check,
      proof,
      (q) => q`select app.begin_totp_enrolment(${sealed}) as username`,
    );
    return c.json({ secret, uri: totpUri(secret, started.username as string) }, 201);
  });

  app.openapi(confirmRoute, async (c) => {
    const { code, ...owner } = c.req.valid('json');
    const [[row], [pending]] = await query(c, 'service', (q) => [
      q`select * from app.begin_factor_check(${clientIp(c)}, ${deviceId(c)})`,
      q`select app.pending_totp_secret() as secret`,
    ]);
    const check = row as unknown as FactorCheck;
    const proof = await proveOwner(c, check, owner);
    const step = verifiedStep(openSecret(c, check.user_id, pending.secret), code);
    if (step === null) throw new HttpError(400, securityMessages.invalidCode);
    const codes = newRecoveryCodes();
    const salt = newRecoverySalt();
    const hashes = codes.map((recoveryCode) => recoveryCodeHash(recoveryCode, salt));
    const session = newSession();
    const [confirmed] = await afterProof(
      c,
      check,
      proof,
      (q) =>
        q`select app.confirm_totp_enrolment(${pending.secret}, ${step}, ${hashes}, ${salt}, ${session.tokenHash}) as ends_by`,
    );
    setSessionCookie(c, session, new Date(confirmed.ends_by as string));
    return c.json({ recovery_codes: codes }, 201);
  });

  return app;
}
