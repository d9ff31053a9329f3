/**
 * Sign-in: GET /api/user, POST /api/login, POST /api/register, POST /api/logout.
 *
 * Registration never takes role or status (the schema strips them; app.register_user writes user/active).
 * Login and registration are rate limited in Postgres per username and per IP: app.begin_attempt checks
 * the limit and records the attempt (as a failure) in one committed transaction BEFORE the password work,
 * so parallel requests cannot all pass the check; app.finish_attempt marks it a success afterwards, in the
 * transaction that stores the session. So each costs two round trips, with the password work between.
 */
import { createRoute } from '@hono/zod-openapi';
import { userEntity } from '../../../src/domain/entities.ts';
import { loginSchema, registerSchema } from '../../../src/domain/schemas.ts';
import { HttpError } from '../../_shared/errors.ts';
import { hashPassword, UNUSABLE_HASH, verifyPassword } from '../../_shared/password.ts';
import { answer, bodyOf, query, sendJson, type Ctx } from '../context.ts';
import { errors, json, jsonBody, messageEntity, router } from '../openapi.ts';
import { userById } from '../queries.ts';
import { clearSessionCookie, clientIp, newSession, setSessionCookie, type NewSession } from '../session.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';

const getUserRoute = createRoute({
  method: 'get', path: '/user', tags: ['auth'], summary: 'The signed-in user',
  responses: { 200: json(userEntity, 'The signed-in user'), ...errors(401) },
});

const loginRoute = createRoute({
  method: 'post', path: '/login', tags: ['auth'], summary: 'Sign in (sets the session cookie)',
  request: { body: jsonBody(loginSchema) },
  responses: { 200: json(userEntity, 'The user, now signed in'), ...errors(400, 401, 403, 429) },
});

const registerRoute = createRoute({
  method: 'post', path: '/register', tags: ['auth'], summary: 'Register a player (sets the session cookie)',
  request: { body: jsonBody(registerSchema) },
  responses: { 201: json(userEntity, 'The new user, signed in'), ...errors(400, 409, 429) },
});

const logoutRoute = createRoute({
  method: 'post', path: '/logout', tags: ['auth'], summary: 'Sign out (deletes the session)',
  responses: { 200: json(messageEntity, 'Signed out (also when no session was open)') },
});

/** Answers the signed-in user `rows` describe (`id`, `body`) and sets the cookie of the session stored with it. */
function signedIn(c: Ctx, session: NewSession, rows: Parameters<typeof bodyOf>[0], status: 200 | 201) {
  setSessionCookie(c, session);
  c.set('userId', rows[0].id as number);
  return sendJson(c, bodyOf(rows), status);
}

export function authRoutes() {
  const app = router();

  app.openapi(getUserRoute, (c) => answer(c, 'user', 'reader', (q) => userById(q)));

  app.openapi(loginRoute, async (c) => {
    const { username, password } = c.req.valid('json');
    // The rate limit (429) and the stored hash, in one round trip; the attempt counts from here on.
    const [[attempt], [credentials]] = await query(c, 'public', 'service', (q) => [
      q`select app.begin_attempt('login', ${username}, ${clientIp(c)}) as id`,
      q`select user_id, password_hash, status from app.get_credentials(${username})`,
    ]);
    // Verify against a never-matching hash for unknown users (and, inside verifyPassword, for hashes that are
    // not scrypt): the same time whether the account exists or not.
    const valid = await verifyPassword(password, credentials?.password_hash ?? UNUSABLE_HASH);
    if (!credentials || !valid) throw new HttpError(401, INVALID_CREDENTIALS); // the attempt stays a failure
    if (credentials.status === 'banned') {
      await query(c, 'public', 'service', (q) => [q`select app.finish_attempt(${attempt.id}, true)`]);
      throw new HttpError(403, 'Your account is banned');
    }
    const session = newSession();
    const [, user] = await query(c, 'public', 'service', (q) => [
      q`select app.finish_attempt(${attempt.id}, true)`,
      q`select u.id, app.user_json(u)::text as body, app.create_session(u.id, ${session.tokenHash}, ${session.expires})
        from public.users u where u.id = ${credentials.user_id}`,
    ]);
    return signedIn(c, session, user, 200);
  });

  app.openapi(registerRoute, async (c) => {
    const input = c.req.valid('json');
    const [[attempt]] = await query(c, 'public', 'service', (q) => [
      q`select app.begin_attempt('register', ${input.username}, ${clientIp(c)}) as id`,
    ]);
    const passwordHash = await hashPassword(input.password);
    const session = newSession();
    // A refused registration rolls back its finish_attempt: the attempt stays a failure (per-IP limit).
    const [, user] = await query(c, 'public', 'service', (q) => [
      q`select app.finish_attempt(${attempt.id}, true)`,
      q`with u as (
          select * from app.register_user(${input.username}, ${passwordHash}, ${input.name}, ${input.email},
                                          ${input.phone}, ${input.referral_code}))
        select u.id, app.user_json(u)::text as body, app.create_session(u.id, ${session.tokenHash}, ${session.expires})
        from u`,
    ]);
    return signedIn(c, session, user, 201);
  });

  app.openapi(logoutRoute, async (c) => {
    const tokenHash = c.get('tokenHash');
    if (tokenHash) await query(c, 'public', 'service', (q) => [q`select app.delete_session(${tokenHash})`]);
    clearSessionCookie(c);
    return c.json({ message: 'Logged out' }, 200);
  });

  return app;
}
