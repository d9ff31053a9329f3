/**
 * Spec §7.1: GET /api/user, POST /api/login, POST /api/register, POST /api/logout.
 *
 * Registration never takes role or status (the schema strips them; app.register_user writes user/active).
 * Login and registration are rate limited in Postgres per username and per IP: app.begin_attempt checks
 * the limit and records the attempt (as a failure) in one committed transaction BEFORE the password work,
 * so parallel requests cannot all pass the check; app.finish_attempt marks it a success afterwards.
 */
import { createRoute } from '@hono/zod-openapi';
import { userEntity, type User } from '../../../src/domain/entities.ts';
import { loginSchema, registerSchema } from '../../../src/domain/schemas.ts';
import { HttpError } from '../../_shared/errors.ts';
import { hashPassword, UNUSABLE_HASH, verifyPassword } from '../../_shared/password.ts';
import { NOT_AUTHENTICATED, withCaller, type Ctx } from '../context.ts';
import { errors, json, jsonBody, messageEntity, router } from '../openapi.ts';
import { getUser } from '../queries.ts';
import { clearSessionCookie, clientIp, startSession } from '../session.ts';

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

/**
 * Checks the rate limit and records the attempt as a failure, in its own committed transaction (it must
 * count while the password work runs, and survive the request's failure). 429 when over the limit.
 */
async function beginAttempt(c: Ctx, action: 'login' | 'register', username: string): Promise<number> {
  const [row] = await c.get('sql').begin(async (tx) => {
    await tx`set local role service_role`;
    return await tx<{ id: number }[]>`select app.begin_attempt(${action}, ${username}, ${clientIp(c)}) as id`;
  });
  return row.id;
}

/** Marks an attempt a success: it stops counting (a login also clears the username's failures). */
async function attemptSucceeded(c: Ctx, attemptId: number) {
  await c.get('sql').begin(async (tx) => {
    await tx`set local role service_role`;
    await tx`select app.finish_attempt(${attemptId}, true)`;
  });
}

export function authRoutes() {
  const app = router();

  app.openapi(getUserRoute, async (c) => {
    const caller = c.get('caller');
    if (!caller) throw new HttpError(401, NOT_AUTHENTICATED);
    const user = await withCaller(c, (db) => getUser(db.tx, caller.userId));
    if (!user) throw new HttpError(401, NOT_AUTHENTICATED);
    return c.json(user, 200);
  });

  app.openapi(loginRoute, async (c) => {
    const { username, password } = c.req.valid('json');
    const attemptId = await beginAttempt(c, 'login', username);
    const sql = c.get('sql');
    const [credentials] = await sql.begin(async (tx) => {
      await tx`set local role service_role`;
      return await tx<{ user_id: number; password_hash: string; status: string }[]>`
        select user_id, password_hash, status from app.get_credentials(${username})`;
    });
    // Verify against a never-matching hash for unknown users (and, inside verifyPassword, for hashes that are
    // not scrypt): the same time whether the account exists or not.
    const valid = await verifyPassword(password, credentials?.password_hash ?? UNUSABLE_HASH);
    if (!credentials || !valid) throw new HttpError(401, INVALID_CREDENTIALS); // the attempt stays a failure
    await attemptSucceeded(c, attemptId);
    if (credentials.status === 'banned') throw new HttpError(403, 'Your account is banned');
    const user = await sql.begin(async (tx) => {
      await tx`set local role service_role`;
      await startSession(c, tx, credentials.user_id);
      return await getUser(tx, credentials.user_id);
    }) as User | undefined;
    if (!user) throw new HttpError(401, INVALID_CREDENTIALS);
    return c.json(user, 200);
  });

  app.openapi(registerRoute, async (c) => {
    const input = c.req.valid('json');
    const attemptId = await beginAttempt(c, 'register', input.username);
    const passwordHash = await hashPassword(input.password);
    // A refused registration leaves the attempt a failure (it counts against the per-IP limit).
    const user = await c.get('sql').begin(async (tx) => {
      await tx`set local role service_role`;
      const [row] = await tx<{ id: number }[]>`
        select r.id from app.register_user(${input.username}, ${passwordHash}, ${input.name}, ${input.email},
                                  ${input.phone}, ${input.referral_code}) r`;
      await startSession(c, tx, row.id);
      return (await getUser(tx, row.id))!;
    }) as User;
    await attemptSucceeded(c, attemptId);
    return c.json(user, 201);
  });

  app.openapi(logoutRoute, async (c) => {
    const caller = c.get('caller');
    if (caller) {
      await c.get('sql').begin(async (tx) => {
        await tx`set local role service_role`;
        await tx`select app.delete_session(${caller.tokenHash})`;
      });
    }
    clearSessionCookie(c);
    return c.json({ message: 'Logged out' }, 200);
  });

  return app;
}

