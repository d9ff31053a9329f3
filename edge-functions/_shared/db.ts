/**
 * The one Postgres client of the function (postgres.js). Amounts and ids are `bigint` in SQL; they are
 * parsed into JSON numbers here because rupee amounts stay far below 2^53.
 */
import postgres from 'postgres';
import { env } from './env.ts';
import { isDatabaseUnavailable, OutcomeUnknown } from './errors.ts';
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

/**
 * A client whose one connection holds a LISTEN: it stays open however long it is idle, `notify` hears each
 * notification (channel, payload) and `lost` is called when the connection closes or cannot be opened (it is
 * not reopened: the caller listens again on a new client).
 */
export function listenConnection(url: string, on: { notify(channel: string, payload: string): void; lost(): void }) {
  const options = {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    connect_timeout: 5,
    fetch_types: false,
    onnotice: () => {},
    onnotify: on.notify,
    onclose: on.lost,
  };
  return postgres(url, options);
}

/** The request pool: renewed after a connection failure (renewable-pool.ts says why). */
export const sql = renewablePool(() => connect());

/** How long a request waits for a connection of the pool before it answers 503 (nothing was sent). */
const RESERVE_TIMEOUT_MS = 10_000;

/**
 * How long a transaction whose statements went out waits for their answers before its caller is told that
 * the outcome is unknown (a request answers 504). The connection is not given up: its answers are awaited
 * in the background, and it goes back to the pool when they come.
 */
const ANSWER_TIMEOUT_MS = 10_000;

const connectionError = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * Runs the statements `build` makes in one transaction, `begin` first and `commit` last, sent one after
 * another on one connection without waiting in between (pipelining) and answered together: one round trip
 * however many statements there are. Returns their results in order (those of begin and commit left out),
 * or throws what the caller may truthfully say:
 *
 *   - the database's refusal of a statement (the first in order): nothing was committed, since a failed
 *     statement turns the commit into a rollback;
 *   - a connection failure (503) when no connection could be had: nothing was sent;
 *   - OutcomeUnknown (504) when the statements went out and no answer to the commit came — the connection
 *     was lost, or did not answer within ANSWER_TIMEOUT_MS. The transaction may have committed; only a later
 *     look (an Idempotency-Key's replay) can tell. A connection with statements in flight is never destroyed
 *     to meet a deadline: a stalled one is waited for in the background, and its pool, if retired
 *     meanwhile, is ended only after (renewable-pool.ts).
 *
 * When the connection fails, the statements not yet answered may never settle (postgres.js): the first
 * connection failure ends the wait at once, the dead connection is not handed back, and the pool is retired.
 */
export async function transaction(sql: Sql, build: (q: Sql) => readonly Statement[]): Promise<Rows[]> {
  const generation = currentPool(sql);
  const connection = await reserve(generation.pool, generation.retired).catch((error) => {
    if (isDatabaseUnavailable(error)) retire(sql, generation.pool);
    throw error;
  });
  const over = generation.hold();
  let statements: Statement[];
  try {
    statements = [connection`begin`, ...build(connection), connection`commit`];
  } catch (error) {
    // nothing sent (postgres.js sends a statement only once it is awaited)
    connection.release();
    over();
    throw error;
  }
  const answers = awaitAnswers(statements);
  // However the caller is answered, the connection goes back (or its pool is retired) once all is known.
  const settled = answers.all.then((lost) => {
    if (lost) retire(sql, generation.pool);
    else connection.release();
    over();
  });
  if (!(await within(answers.all, ANSWER_TIMEOUT_MS))) keepAliveUntil(settled);
  const refusal = answers.got.find((answer) => answer?.error !== undefined && !isDatabaseUnavailable(answer.error));
  if (refusal) throw refusal.error;
  if (answers.got.some((answer) => answer === undefined || answer.error !== undefined)) throw new OutcomeUnknown();
  return answers.got.slice(1, -1).map((answer) => answer!.rows!);
}

interface Answer {
  rows?: Rows;
  error?: unknown;
}

/**
 * The answers of `statements` as they come (`got`, in order; undefined while awaited), and `all`: resolved
 * when every one is answered (false) or at the first connection failure (true: the others may never be).
 */
function awaitAnswers(statements: readonly Statement[]): { got: (Answer | undefined)[]; all: Promise<boolean> } {
  const got: (Answer | undefined)[] = statements.map(() => undefined);
  const all = new Promise<boolean>((resolve) => {
    let waiting = statements.length;
    statements.forEach((statement, index) =>
      statement.then(
        (rows) => {
          got[index] = { rows };
          if (--waiting === 0) resolve(false);
        },
        (error) => {
          got[index] = { error };
          if (isDatabaseUnavailable(error)) resolve(true);
          else if (--waiting === 0) resolve(false);
        },
      ),
    );
  });
  return { got, all };
}

/** Whether `work` settles within `ms`; the timer does not outlive the answer. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Work that goes on after the answer was sent. On Supabase's edge runtime an instance may be stopped once
 * it has answered: `EdgeRuntime.waitUntil` keeps it alive until the work is done.
 */
export function keepAliveUntil(work: Promise<unknown>): void {
  (globalThis as { EdgeRuntime?: { waitUntil(work: Promise<unknown>): void } }).EdgeRuntime?.waitUntil(work);
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
    const connection = await Promise.race([
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
    // retired between the connection's coming and now: its pool is ending, send nothing on it
    if (retired.aborted) throw reset();
    return connection;
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
