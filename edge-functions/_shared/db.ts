/**
 * The one Postgres client of the function (postgres.js). Amounts and ids are `bigint` in SQL; they are
 * parsed into JSON numbers here because rupee amounts stay far below 2^53 (ARCHITECTURE.md §8).
 */
import postgres from 'postgres';
import { env } from './env.ts';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

const BIGINT_OID = 20;
const NUMERIC_OID = 1700;

/** A client of up to `max` connections (the pool; the live feed's LISTEN client uses 1). */
export function connect(url: string = env.databaseUrl, max = 10): Sql {
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
