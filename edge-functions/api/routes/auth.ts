/**
 * Sessions: POST /api/login, POST /api/register, POST /api/logout and POST /api/logout-all. The document
 * fixes these paths at the root of /api, so this router is the session resource mounted at `/` (app.ts).
 *
 * Registration never takes role or status (the schema strips them; app.register_user writes user/active).
 * Login and registration are rate limited in Postgres per username and per IP, counting finished attempts
 * only: app.check_attempt refuses (429) before the password work an attempt the limits already refuse;
 * app.conclude_attempt records the attempt's outcome once it is known, in the transaction that acts on it,
 * after checking the limits again under its locks — an outcome they no longer allow is a 429 and is never
 * told, so parallel attempts cannot pass a limit (docs/design.md). Two round trips with the password work
 * between, whatever the outcome (a refusal the database makes after the password work: three).
 *
 * An account with two-factor sign-in (admins) also needs `totp_code`: without it the answer is a 401 with
 * `mfa_required: true` (the password was right; the attempt counts as a failed one until a sign-in
 * succeeds); a TOTP
 * code is checked here and its time step spent in the database with the session (no code works twice); a
 * recovery code is spent there too; a wrong one counts towards the second factor's lock (code-check.ts). A
 * sign-in remembers the browser (device.ts) for the rate limits and the lock.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { securityMessages } from '@/domain/account-security.ts';
import { loginRefusalEntity } from '@/domain/account-security-schemas.ts';
import { userEntity } from '@/domain/entities.ts';
import { loginSchema, registerSchema } from '@/domain/schemas.ts';
import { HttpError, refusalOf } from '@shared/errors.ts';
import { hashPassword, UNUSABLE_HASH, verifyPassword } from '@shared/password.ts';
import type { Rows, Sql } from '@shared/db.ts';
import { bodyOf, query, sendJson, type AnswerStatus, type Ctx, type Statements } from '../context.ts';
import { checkCode, spendCode, type Refusals, type StoredFactor } from '../code-check.ts';
import { deviceId, setDeviceCookie, signInDevice } from '../device.ts';
import { errors, json, jsonBody, messageEntity, router, SESSION_OPTIONAL } from '../openapi.ts';
import { clearSessionCookie, clientIp, newSession, setSessionCookie, type NewSession } from '../session.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';

const loginRoute = createRoute({
  operationId: 'login',
  method: 'post',
  path: '/login',
  tags: ['auth'],
  summary: 'Sign in (sets the session cookie)',
  request: { body: jsonBody(loginSchema, { username: 'asha', password: 'correct-horse' }) },
  responses: {
    200: json(userEntity, 'The user, now signed in'),
    401: json(
      loginRefusalEntity,
      'Wrong username or password; or, with `mfa_required`, the second factor is missing or wrong',
    ),
    ...errors(400, 403, 429),
  },
});

const registerRoute = createRoute({
  operationId: 'register',
  method: 'post',
  path: '/register',
  tags: ['auth'],
  summary: 'Register a player (sets the session cookie)',
  request: {
    body: jsonBody(registerSchema, {
      name: 'Asha Patel',
      username: 'asha',
      email: 'asha@example.com',
      password: 'correct-horse',
      phone: '9876543210',
    }),
  },
  responses: { 201: json(userEntity, 'The new user, signed in'), ...errors(400, 409, 429) },
});

const logoutAllRoute = createRoute({
  operationId: 'logoutEverywhere',
  method: 'post',
  path: '/logout-all',
  tags: ['account: security'],
  summary: 'Sign out everywhere: every session of the user ends, this one included',
  responses: { 200: json(messageEntity, 'Signed out everywhere'), ...errors(401) },
});

const logoutRoute = createRoute({
  operationId: 'logout',
  security: SESSION_OPTIONAL,
  method: 'post',
  path: '/logout',
  tags: ['auth'],
  summary: 'Sign out (deletes the session)',
  responses: { 200: json(messageEntity, 'Signed out (also when no session was open)') },
});

/**
 * The columns of a statement over a user row `u` that open a session for that user and answer them: `id`,
 * `body` (the user) and `ends_by` (when the session ends at the latest: the cookie's expiry). The session
 * notes the browser and address; the device becomes one that has signed in as this user.
 */
function sessionColumns(q: Sql, c: Ctx, session: NewSession, device: string) {
  return q`u.id, app.user_json(u)::text as body,
    app.create_session(u.id, ${session.tokenHash}, ${c.req.header('user-agent')?.slice(0, 512) ?? null}, ${clientIp(c)}, ${device}) as ends_by`;
}

/** Answers the signed-in user `rows` describe and sets the cookies of the session and the device. */
function answerSignedIn<R extends RouteConfig>(
  c: Ctx,
  session: NewSession,
  device: string,
  rows: Rows,
  status: AnswerStatus<R>,
) {
  setSessionCookie(c, session, new Date(rows[0].ends_by as string));
  setDeviceCookie(c, device);
  c.set('userId', rows[0].id as number);
  return sendJson<R>(c, bodyOf(rows), status);
}

/** A sign-in without a code is asked for one (`mfa_required`); a wrong one is an 'Invalid code'. */
const SIGN_IN_REFUSALS: Refusals = {
  missing: () => new HttpError(401, securityMessages.mfaRequired, undefined, { mfa_required: true }),
  wrong: () => new HttpError(401, securityMessages.invalidCode),
};

/** A sign-in or registration attempt as the rate limits know it (app.check_attempt, app.conclude_attempt). */
interface Attempt {
  action: 'login' | 'register';
  username: string;
  ip: string | null;
  device: string | null;
}

const checkAttempt = (q: Sql, a: Attempt) =>
  q`select app.check_attempt(${a.action}, ${a.username}, ${a.ip}, p_device => ${a.device})`;

const concludeAttempt = (q: Sql, a: Attempt, success: boolean) =>
  q`select app.conclude_attempt(${a.action}, ${a.username}, ${a.ip}, ${success}, p_device => ${a.device})`;

/** Records `attempt` as failed, then refuses it with `refusal` (or 429, when the limits no longer allow telling). */
async function failed(c: Ctx, attempt: Attempt, refusal: HttpError): Promise<never> {
  await query(c, 'service', (q) => [concludeAttempt(q, attempt, false)]);
  throw refusal;
}

/**
 * Records `attempt` as successful in one transaction with what it does (`statements`, whose results it
 * returns). When one of them refuses (a second factor already used, a username taken), nothing is kept and
 * the attempt is recorded as failed instead; a 429 there is the limits' own refusal of the outcome.
 */
async function succeeded(c: Ctx, attempt: Attempt, statements: Statements): Promise<Rows[]> {
  try {
    return (await query(c, 'service', (q) => [concludeAttempt(q, attempt, true), ...statements(q)])).slice(1);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal || refusal.status === 429) throw error;
    return failed(c, attempt, refusal);
  }
}

export function authRoutes() {
  const app = router();

  app.openapi(loginRoute, async (c) => {
    const { username, password, totp_code: code } = c.req.valid('json');
    const device = signInDevice(c);
    const attempt: Attempt = { action: 'login', username, ip: clientIp(c), device };
    // The rate limit (429) and the stored hash, in one round trip.
    const [, [credentials]] = await query(c, 'service', (q) => [
      checkAttempt(q, attempt),
      q`select user_id, password_hash, status, totp_secret, recovery_code_salt, second_factor_wait
        from app.get_credentials(${username}, ${deviceId(c)})`,
    ]);
    // Verify against a never-matching hash for unknown users (and, inside verifyPassword, for hashes that are
    // not scrypt): the same time whether the account exists or not.
    const valid = await verifyPassword(password, credentials?.password_hash ?? UNUSABLE_HASH);
    if (!credentials || !valid) return failed(c, attempt, new HttpError(401, INVALID_CREDENTIALS));
    if (credentials.status === 'banned') {
      await query(c, 'service', (q) => [concludeAttempt(q, attempt, true)]);
      throw new HttpError(403, 'Your account is banned');
    }
    let spend: Statements = () => [];
    try {
      if (credentials.totp_secret) {
        spend = await checkCode(c, credentials as unknown as StoredFactor, code, SIGN_IN_REFUSALS);
      }
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return failed(c, attempt, refusal); // no code, a wrong one, or the second factor locked
    }
    const session = newSession();
    const results = await spendCode(c, credentials.user_id, SIGN_IN_REFUSALS, () =>
      succeeded(c, attempt, (q) => [
        ...spend(q),
        q`select ${sessionColumns(q, c, session, device)} from public.users u where u.id = ${credentials.user_id}`,
      ]),
    );
    return answerSignedIn<typeof loginRoute>(c, session, device, results.at(-1)!, 200);
  });

  app.openapi(registerRoute, async (c) => {
    const input = c.req.valid('json');
    const attempt: Attempt = { action: 'register', username: input.username, ip: clientIp(c), device: null };
    await query(c, 'service', (q) => [checkAttempt(q, attempt)]);
    const passwordHash = await hashPassword(input.password);
    const session = newSession();
    const device = signInDevice(c);
    const [user] = await succeeded(c, attempt, (q) => [
      q`with u as (
          select * from app.register_user(${input.username}, ${passwordHash}, ${input.name}, ${input.email},
                                          ${input.phone}, ${input.referral_code}))
        select ${sessionColumns(q, c, session, device)} from u`,
    ]);
    return answerSignedIn<typeof registerRoute>(c, session, device, user, 201);
  });

  app.openapi(logoutRoute, async (c) => {
    const tokenHash = c.get('tokenHash');
    if (tokenHash) await query(c, 'service', (q) => [q`select app.delete_session(${tokenHash})`]);
    clearSessionCookie(c);
    return c.json({ message: 'Logged out' }, 200);
  });

  // Signing out everywhere ends the caller's own sessions: the one route here behind the sign-in guard.
  const everywhere = router('user');
  everywhere.openapi(logoutAllRoute, async (c) => {
    await query(c, 'service', (q) => [q`select app.end_all_sessions()`]);
    clearSessionCookie(c);
    return c.json({ message: 'Signed out everywhere' }, 200);
  });

  return app.route('/', everywhere);
}
