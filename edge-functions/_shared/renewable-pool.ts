/**
 * A database pool that can be swapped for a fresh one. postgres.js 3.4.9 does not always recover a pool
 * whose connections fail under it (the database restarting): a waiting `reserve()` can be stranded for
 * good, statements queued on a reserved connection never settle, and releasing a reserved connection that
 * died can make the pool write to its closed socket (porsager/postgres issues #1195, #1186). So when a
 * connection of the current pool fails, the request path (db.ts `transaction`) retires that pool: new
 * requests get a fresh one, requests still waiting for a connection of the old one are refused at once
 * (they would wait in vain), and the old pool ends once no transaction is in flight on it any more — never
 * before: a transaction whose statements went out may be committing, and destroying its connection would
 * not undo that, only hide the answer. Whatever else runs on it then gets at most END_TIMEOUT_S.
 */
import type postgres from 'postgres';

type Sql = postgres.Sql;

const END_TIMEOUT_S = 5;

/** One pool of a renewable handle: the current one, or a retired one still finishing its transactions. */
export interface PoolGeneration {
  readonly pool: Sql;
  /**
   * Aborted when this pool is retired. A signal rather than a promise: each waiting request listens only
   * while it waits and removes its listener after, whereas a reaction added to a pending promise stays
   * until it settles — for a pool that is never retired, one per request served, each holding its request's
   * reserved connection (heap snapshots under load showed them growing by about 2.5 KB a request; see
   * docs/performance.md).
   */
  readonly retired: AbortSignal;
  /** Notes a transaction in flight on this pool; call the function it returns once it is over. */
  hold(): () => void;
}

class Generation implements PoolGeneration {
  readonly #controller = new AbortController();
  #inFlight = 0;

  constructor(readonly pool: Sql) {}

  get retired(): AbortSignal {
    return this.#controller.signal;
  }

  hold(): () => void {
    this.#inFlight += 1;
    let over = false;
    return () => {
      if (over) return;
      over = true;
      this.#inFlight -= 1;
      if (this.#inFlight === 0 && this.retired.aborted) this.#end();
    };
  }

  retire(): void {
    this.#controller.abort();
    if (this.#inFlight === 0) this.#end();
  }

  #end() {
    this.pool.end({ timeout: END_TIMEOUT_S }).catch(() => {});
  }
}

const generations = new WeakMap<Sql, { current: Generation; open: () => Sql }>();

/** A pool (what `open` makes) behind a stable handle: calls and properties go to the current pool. */
export function renewablePool(open: () => Sql): Sql {
  const state = { current: new Generation(open()), open };
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
const nothingToNote = () => () => {};

/** The pool `sql` stands for now (a plain pool stands for itself, and is never retired). */
export function currentPool(sql: Sql): PoolGeneration {
  return generations.get(sql)?.current ?? { pool: sql, retired: NEVER_RETIRED, hold: nothingToNote };
}

/** Replaces `pool` with a fresh one, if it is still the current pool of `sql` (a renewable handle). */
export function retire(sql: Sql, pool: Sql): void {
  const state = generations.get(sql);
  if (!state || state.current.pool !== pool) return;
  const old = state.current;
  state.current = new Generation(state.open());
  old.retire();
}
