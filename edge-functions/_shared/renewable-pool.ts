/**
 * A database pool that can be swapped for a fresh one. postgres.js 3.4.9 does not always recover a pool
 * whose connections fail under it (the database restarting): a waiting `reserve()` can be stranded for
 * good, statements queued on a reserved connection never settle, and releasing a reserved connection that
 * died can make the pool write to its closed socket (porsager/postgres issues #1195, #1186). So when a
 * connection of the current pool fails, the request path (db.ts `pipeline`) retires that pool: new requests
 * get a fresh one, requests still waiting for a connection of the old one are refused at once (they would
 * wait in vain), and the old pool ends once its queries in flight finish (at most END_TIMEOUT_S).
 */
import type postgres from 'postgres';

type Sql = postgres.Sql;

const END_TIMEOUT_S = 5;

interface Generation {
  pool: Sql;
  /**
   * Aborted when this pool is retired. A signal rather than a promise: each waiting request listens only
   * while it waits and removes its listener after, whereas a reaction added to a pending promise stays
   * until it settles — for a pool that is never retired, one per request served, each holding its request's
   * reserved connection (heap snapshots under load showed them growing by about 2.5 KB a request; see
   * docs/performance.md).
   */
  retired: AbortSignal;
  retire: () => void;
}

const generations = new WeakMap<Sql, { current: Generation; open: () => Sql }>();

function generation(pool: Sql): Generation {
  const controller = new AbortController();
  return { pool, retired: controller.signal, retire: () => controller.abort() };
}

/** A pool (what `open` makes) behind a stable handle: calls and properties go to the current pool. */
export function renewablePool(open: () => Sql): Sql {
  const state = { current: generation(open()), open };
  const handle = new Proxy(function () {} as unknown as Sql, {
    apply: (_target, _this, args) => (state.current.pool as unknown as (...args: unknown[]) => unknown)(...args),
    get: (_target, property) => {
      const value = Reflect.get(state.current.pool, property);
      return typeof value === 'function' ? value.bind(state.current.pool) : value;
    },
  });
  generations.set(handle, state);
  return handle;
}

const NEVER_RETIRED = new AbortController().signal;

/** The pool `sql` stands for now, and when it is retired (never, for a plain pool). */
export function currentPool(sql: Sql): Pick<Generation, 'pool' | 'retired'> {
  return generations.get(sql)?.current ?? { pool: sql, retired: NEVER_RETIRED };
}

/** Replaces `pool` with a fresh one, if it is still the current pool of `sql` (a renewable handle). */
export function retire(sql: Sql, pool: Sql): void {
  const state = generations.get(sql);
  if (!state || state.current.pool !== pool) return;
  const old = state.current;
  state.current = generation(state.open());
  old.retire();
  old.pool.end({ timeout: END_TIMEOUT_S }).catch(() => {});
}
