/**
 * Who is calling, and running a request's SQL as them.
 *
 * The session middleware (session.ts) resolves the caller once per request and stores it here. Every
 * route then runs its SQL in ONE short transaction (`withCaller`) with `request.jwt.claims` set
 * transaction-local, reading `public` tables as `authenticated` (RLS decides which rows exist for the
 * caller; `anon` without a session) and switching to `service_role` only to call an `app.*` business
 * function, which reads the caller from the same claims and re-checks role and status (ARCHITECTURE.md §4).
 */
import type { Context } from 'hono';
import type { Sql, TransactionSql } from '../_shared/db.ts';
import { HttpError } from '../_shared/errors.ts';
import type { Env as Config } from '../_shared/env.ts';

export interface Caller {
  userId: number;
  role: 'user' | 'admin';
  status: 'active' | 'suspended' | 'banned';
  /** SHA-256 (hex) of the session token, for logout. */
  tokenHash: string;
}

export type AppEnv = {
  Variables: {
    sql: Sql;
    config: Config;
    caller: Caller | null;
    /** For the request log line (middleware.ts). */
    userId: number | null;
  };
};

export type Ctx = Context<AppEnv>;

export const NOT_AUTHENTICATED = 'Not authenticated';
export const ADMIN_REQUIRED = 'Admin access required';

/** The signed-in caller, or 401. */
export function requireUser(c: Ctx): Caller {
  const caller = c.get('caller');
  if (!caller) throw new HttpError(401, NOT_AUTHENTICATED);
  return caller;
}

/**
 * An active admin, or 401 (anonymous) / 403 (anyone else). The admin functions in SQL check the same again
 * against public.users; this check also covers the admin reads, which call no function.
 */
export function requireAdmin(c: Ctx): Caller {
  const caller = requireUser(c);
  if (caller.role !== 'admin' || caller.status !== 'active') throw new HttpError(403, ADMIN_REQUIRED);
  return caller;
}

/** The role a transaction currently runs as: `reader` = authenticated (or anon), `service` = service_role. */
export interface RequestTx {
  tx: TransactionSql;
  /** Switch to the reading role: RLS applies. */
  asReader(): Promise<void>;
  /** Switch to service_role to call an `app.*` function (claims stay set). */
  asService(): Promise<void>;
}

/**
 * Runs `work` in one transaction as `caller` (or anonymously). Starts as the reading role. The claims
 * JSON is a bound parameter, never interpolated SQL.
 */
export async function withCaller<T>(c: Ctx, work: (db: RequestTx) => Promise<T>): Promise<T> {
  const sql = c.get('sql');
  const caller = c.get('caller');
  return await sql.begin(async (tx) => {
    if (caller) {
      const claims = JSON.stringify({ role: 'authenticated', user_id: caller.userId, app_role: caller.role });
      await tx`select set_config('request.jwt.claims', ${claims}, true)`;
    }
    const db: RequestTx = {
      tx,
      asReader: async () => {
        await (caller ? tx`set local role authenticated` : tx`set local role anon`);
      },
      asService: async () => {
        await tx`set local role service_role`;
      },
    };
    await db.asReader();
    return await work(db);
  }) as T;
}

/** The first row of a result, or a 404 with `message`. */
export function one<T>(rows: readonly T[], message: string): T {
  const row = rows[0];
  if (row === undefined) throw new HttpError(404, message);
  return row;
}
