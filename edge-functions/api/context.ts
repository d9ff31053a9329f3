/**
 * Who is calling, and a request's database work in ONE round trip.
 *
 * Every route hands its statements to `query`, which sends them together with what makes them run as the
 * caller, pipelined on one connection and answered together (db.ts `transaction`):
 *
 *   begin;
 *   select …, set_config('role', <role>, true) from app.authenticate(<token hash>, 'user' | 'admin', <ip>, <mfa>);
 *   <the route's statements>;
 *   commit;
 *
 * app.authenticate resolves the session (and notes the address it is used from; admin routes also need a
 * second factor when ADMIN_MFA is required) and sets the transaction-local `request.jwt.claims`; RLS policies
 * (reading role `authenticated`, or `anon` on public routes) decide which rows exist for the caller, and the
 * `app.*` business functions (role `service_role`, the only one that may run them) read the caller from the
 * same claims and re-check role and status. When a statement fails, the ones after it fail too and the
 * commit becomes a rollback: nothing of the request is kept, and the first failure is the answer. When the
 * database does not answer, the answer says what is known: 503 when nothing was sent, 504 ("outcome":
 * "unknown") when the statements went out and whether they committed cannot be known.
 */
import type { RouteConfig, RouteConfigToTypedResponse } from '@hono/zod-openapi';
import type { Context, TypedResponse } from 'hono';
import { transaction, type Rows, type Sql, type Statement } from '@shared/db.ts';
import { HttpError, toHttpError } from '@shared/errors.ts';
import type { Env as Config } from '@shared/env.ts';
import { clientIp } from './session.ts';

export type AppEnv = {
  Variables: {
    sql: Sql;
    config: Config;
    /** SHA-256 (hex) of a well-formed session cookie, or null (session.ts). */
    tokenHash: string | null;
    /** Who the route admits (the guard of its router: openapi.ts); 'public' unless a guard said otherwise. */
    access: Access;
    /** The caller once the database resolved the session, for the request log (middleware.ts). */
    userId: number | null;
  };
};

export type Ctx = Context<AppEnv>;

export const NOT_AUTHENTICATED = 'Not authenticated';

/** Who may call a route: anyone, a signed-in user, or an active admin. */
export type Access = 'public' | 'user' | 'admin';

/**
 * The role the route's statements run as: `reader` reads through RLS (`authenticated`, or `anon` on public
 * routes); `service` calls `app.*` business functions (`service_role`).
 */
export type RunAs = 'reader' | 'service';

/** A route's statements, built on the request's connection (postgres.js tagged templates, not awaited). */
export type Statements = (q: Sql) => readonly Statement[];

/** 401 at once when a route needs a session and the request carries none: no database work at all. */
export function requireSession(c: Ctx): string {
  const tokenHash = c.get('tokenHash');
  if (!tokenHash) throw new HttpError(401, NOT_AUTHENTICATED);
  return tokenHash;
}

function roleFor(access: Access, runAs: RunAs): string {
  if (runAs === 'service') return 'service_role';
  return access === 'public' ? 'anon' : 'authenticated';
}

/**
 * Runs the route's statements as the caller, in one transaction and one round trip, and returns their
 * results in order. The route's access (its router's guard) 'user' / 'admin' answers 401 / 403 (from
 * app.authenticate) before anything else of the request runs.
 */
export function query(c: Ctx, runAs: RunAs, statements: Statements): Promise<Rows[]> {
  return queryAs(c, c.get('access'), runAs, statements);
}

/**
 * `query` with the session resolved as `access` needs, whatever the route admits: for a public route that
 * also reads the caller's session when there is one (the live stream, the sandbox gateway's owner check).
 */
export async function queryAs(c: Ctx, access: Access, runAs: RunAs, statements: Statements): Promise<Rows[]> {
  const role = roleFor(access, runAs);
  const tokenHash = access === 'public' ? null : requireSession(c);
  let caller: Statement | undefined;
  try {
    const results = await transaction(c.get('sql'), (q) => [
      (caller =
        tokenHash === null
          ? q`select set_config('role', ${role}, true)`
          : q`select a.user_id, set_config('role', ${role}, true)
            from app.authenticate(${tokenHash}, ${access}, ${clientIp(c)}, ${c.get('config').adminMfa === 'required'}) a`),
      ...statements(q),
    ]);
    noteCaller(c, results[0]);
    return results.slice(1);
  } catch (error) {
    // A later statement failed (a refusal, an Idempotency-Key replay): the session was still resolved, and
    // the request log names the caller like any other. Without the database's answer (503, 504) nothing may
    // have settled.
    const status = toHttpError(error)?.status ?? 500;
    if (caller && status !== 503 && status !== 504) noteCaller(c, await caller.catch(() => undefined));
    throw error;
  }
}

/** The caller app.authenticate resolved (the request log's user_id). */
function noteCaller(c: Ctx, rows: Rows | undefined) {
  const userId = rows?.[0]?.user_id;
  if (typeof userId === 'number') c.set('userId', userId);
}

/** The `body` column of the first row of a statement's result (JSON built in SQL), or a 404 with `message`. */
export function bodyOf(rows: Rows, message = 'Not found'): string {
  const row = rows[0];
  if (row === undefined) throw new HttpError(404, message);
  return row.body as string;
}

/** The successes a route answers: 202 says a second administrator must act before the change takes effect. */
export type SuccessStatus = 200 | 201 | 202;

/**
 * Route R's JSON answers with a success status among `S`: what R's handler may return, by R's own schemas
 * (`never` for a status R does not declare).
 */
export type Answer<R extends RouteConfig, S extends SuccessStatus = SuccessStatus> = Extract<
  RouteConfigToTypedResponse<R>,
  TypedResponse<unknown, S, 'json'>
>;

/** The success statuses route R declares a JSON answer for. */
export type AnswerStatus<R extends RouteConfig> = Answer<R>['_status'];

/**
 * Answers JSON built by the database as it is, as route R's answer with `status`: no parse and re-serialize
 * in between. R is named by the handler (`sendJson<typeof route>`), so answering another route's shape, or a
 * status R does not declare, fails the type check.
 *
 * The one place a body gets its type by assertion: TypeScript cannot see into SQL. The SQL builders are
 * held to R's schema by the API tests instead, which validate every answer they receive against the
 * document made from the same schemas (tests/support/contract.ts; docs/design.md, "The contract").
 */
export function sendJson<R extends RouteConfig, S extends AnswerStatus<R> = AnswerStatus<R>>(
  c: Ctx,
  body: string,
  status: S,
): Answer<R, S> {
  return c.body(body, status, { 'content-type': 'application/json; charset=UTF-8' }) as unknown as Answer<R, S>;
}

/**
 * Route R's 304 (a conditional GET whose ETag is current): no body, so nothing to check; asserted here with
 * `sendJson`'s answers.
 */
export function notModified<R extends RouteConfig>(c: Ctx): Extract<RouteConfigToTypedResponse<R>, { _status: 304 }> {
  return c.body(null, 304) as unknown as Extract<RouteConfigToTypedResponse<R>, { _status: 304 }>;
}

/** `answer`'s options: a route without a 200 answer must say its status. */
type AnswerOptions<R extends RouteConfig> = { notFound?: string } & (200 extends AnswerStatus<R>
  ? { status?: AnswerStatus<R> }
  : { status: AnswerStatus<R> });

/** `answer`'s options argument for route R: optional when R answers 200. */
export type AnswerArgs<R extends RouteConfig> =
  200 extends AnswerStatus<R> ? [options?: AnswerOptions<R>] : [options: AnswerOptions<R>];

/**
 * Runs one statement that returns `body` and answers it as route R's answer (404 with `notFound` when it
 * returns no row). A statement that may leave its change waiting for a second administrator also returns
 * `status` (202 then: R declares it, and the API tests check that it does).
 */
export async function answer<R extends RouteConfig>(
  c: Ctx,
  runAs: RunAs,
  statement: (q: Sql) => Statement,
  ...[options]: AnswerArgs<R>
): Promise<Answer<R>> {
  const [rows] = await query(c, runAs, (q) => [statement(q)]);
  const body = bodyOf(rows, options?.notFound);
  const status = rows[0].status === 202 ? 202 : (options?.status ?? 200);
  return sendJson<R>(c, body, status as AnswerStatus<R>);
}
