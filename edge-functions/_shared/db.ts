/**
 * The one Postgres client of the function (postgres.js). Amounts and ids are `bigint` in SQL; they are
 * parsed into JSON numbers here because rupee amounts stay far below 2^53.
 */
import postgres from 'postgres';
import { env } from './env.ts';
import { isDatabaseUnavailable } from './errors.ts';
import { currentPool, renewablePool, retire } from './renewable-pool.ts';

export type Sql = postgres.Sql;
export type Rows = postgres.RowList<postgres.Row[]>;
/** A statement built with a tagged template and not yet sent (postgres.js sends it when awaited). */
export type Statement = postgres.PendingQuery<postgres.Row[]>;

const BIGINT_OID = 20;
const NUMERIC_OID = 1700;

/** A client of up to `max` connections (the pool; the live feed's LISTEN client uses 1). */
export function connect(url: string = env.databaseUrl, max = env.databasePoolMax): Sql {
  return postgres(url, {
    max,
    idle_timeout: 30,
    connect_timeout: 5,
    prepare: env.databasePrepare,
    onnotice: () => {},
    // Timestamps built in SQL (to_jsonb) come out as ISO 8601 in UTC.
    connection: { TimeZone: 'UTC' },
    types: {
      bigint: { to: BIGINT_OID, from: [BIGINT_OID], serialize: String, parse: Number },
      numeric: { to: NUMERIC_OID, from: [NUMERIC_OID], serialize: String, parse: Number },
    },
  });
}

/** The request pool: renewed after a connection failure (renewable-pool.ts says why). */
export const sql = renewablePool(() => connect());

/** How long a request waits for a connection of the pool before it answers 503. */
const RESERVE_TIMEOUT_MS = 10_000;

const connectionError = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * Sends the statements `build` makes one after another on one connection without waiting in between
 * (pipelining), then waits once for all the answers: one round trip however many statements there are.
 * Returns their results in order, or throws the first failure in order (when a statement fails inside a
 * transaction, the later ones fail only because of it).
 *
 * When the connection fails (the database went away), the statements not yet sent would never settle:
 * the first connection failure is thrown at once, the dead connection is not handed back, and the pool is
 * retired. Nothing of the request was committed then (the commit is the last statement: it failed too), so
 * the request is refused honestly (503).
 */
export async function pipeline(sql: Sql, build: (q: Sql) => readonly Statement[]): Promise<Rows[]> {
  const { pool, retired } = currentPool(sql);
  const connection = await reserve(pool, retired).catch((error) => {
    if (isDatabaseUnavailable(error)) retire(sql, pool);
    throw error;
  });
  let connectionFailed = false;
  try {
    const statements = build(connection);
    const settled = await Promise.race([
      Promise.allSettled(statements),
      new Promise<never>((_, reject) => {
        for (const statement of statements) statement.catch((error) => isDatabaseUnavailable(error) && reject(error));
      }),
    ]);
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    return settled.map((result) => (result as PromiseFulfilledResult<Rows>).value);
  } catch (error) {
    connectionFailed = isDatabaseUnavailable(error);
    if (connectionFailed) retire(sql, pool);
    throw error;
  } finally {
    if (!connectionFailed) connection.release();
  }
}

/**
 * A reserved connection of `pool`; refused (as a connection failure: 503) when none comes within
 * RESERVE_TIMEOUT_MS or the pool is retired meanwhile. A connection that comes after all goes back. Nothing
 * of the wait outlives it: the timer is cleared and the listener on `retired` removed.
 */
async function reserve(pool: Sql, retired: AbortSignal): Promise<postgres.ReservedSql> {
  const reset = () => connectionError('CONNECTION_ENDED', 'The database connections were reset');
  if (retired.aborted) throw reset();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onRetired = () => {};
  const reserving = pool.reserve();
  try {
    return await Promise.race([
      reserving,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(connectionError('CONNECT_TIMEOUT', 'No database connection in time')),
          RESERVE_TIMEOUT_MS,
        );
        onRetired = () => reject(reset());
        retired.addEventListener('abort', onRetired, { once: true });
      }),
    ]);
  } catch (error) {
    reserving.then(
      (late) => late.release(),
      () => {},
    );
    throw error;
  } finally {
    clearTimeout(timer);
    retired.removeEventListener('abort', onRetired);
  }
}
