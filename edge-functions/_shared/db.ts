/**
 * The one Postgres client of the function (postgres.js). Amounts and ids are `bigint` in SQL; they are
 * parsed into JSON numbers here because rupee amounts stay far below 2^53 (ARCHITECTURE.md §8).
 */
import postgres from 'postgres';
import { env } from './env.ts';

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

export const sql = connect();

/**
 * Sends the statements `build` makes one after another on one connection without waiting in between
 * (pipelining), then waits once for all the answers: one round trip however many statements there are.
 * Returns their results in order, or throws the first failure in order (when a statement fails inside a
 * transaction, the later ones fail only because of it).
 */
export async function pipeline(sql: Sql, build: (q: Sql) => readonly Statement[]): Promise<Rows[]> {
  const connection = await sql.reserve();
  try {
    const settled = await Promise.allSettled(build(connection));
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    return settled.map((result) => (result as PromiseFulfilledResult<Rows>).value);
  } finally {
    connection.release();
  }
}
