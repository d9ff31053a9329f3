/**
 * Live match updates for the local runtime: ONE `LISTEN match_updates` connection per process fans the
 * database's notifications (migration trigger on public.matches) out to every subscriber (SSE client),
 * however many there are.
 *
 * Recovery: postgres.js re-issues LISTEN when its connection drops, but if Postgres is still down (or
 * shutting down) at that moment the failed LISTEN stays cached in the client for good. So the feed owns a
 * dedicated client for listening and pings itself through the ordinary pool on a second channel; when
 * pings stop arriving while the database answers, it throws that client away and listens on a new one.
 * After Postgres restarts, updates flow again within a few seconds.
 */
import type { Sql } from './db.ts';

export interface MatchUpdate {
  id: number;
  status: string;
}
type Listener = (update: MatchUpdate) => void;

const CHANNEL = 'match_updates';
const PING_CHANNEL = 'match_updates_ping';
const PING_EVERY_MS = 5_000;
const SILENCE_LIMIT_MS = 12_000;

export class MatchFeed {
  readonly #sql: Sql;
  readonly #openListenClient: () => Sql;
  readonly #listeners = new Set<Listener>();
  #listenClient?: Sql;
  #lastPing = 0;
  #timer?: ReturnType<typeof setInterval>;
  #listening: Promise<void> = Promise.resolve();

  /** `sql` is the pool (for pings); `openListenClient` makes the dedicated client that holds the LISTEN. */
  constructor(sql: Sql, openListenClient: () => Sql) {
    this.#sql = sql;
    this.#openListenClient = openListenClient;
  }

  /** Adds a subscriber; the returned function removes it. The first subscriber starts the LISTEN. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    this.#start();
    return () => this.#listeners.delete(listener);
  }

  /**
   * Settles once the LISTEN is in place (or has failed: the watchdog retries). A stream tells its client
   * it is connected only after this, so no update committed after that point is missed.
   */
  ready(): Promise<void> {
    return this.#listening.catch(() => {});
  }

  get subscribers(): number {
    return this.#listeners.size;
  }

  #start() {
    if (this.#timer !== undefined) return;
    this.#listening = this.#listen();
    this.#timer = setInterval(() => this.#checkAlive(), PING_EVERY_MS);
  }

  async #listen() {
    const previous = this.#listenClient;
    const client = (this.#listenClient = this.#openListenClient());
    await previous?.end({ timeout: 0 }).catch(() => {});
    this.#lastPing = Date.now();
    await client.listen(CHANNEL, (payload) => this.#publish(payload));
    await client.listen(PING_CHANNEL, () => (this.#lastPing = Date.now()));
  }

  async #checkAlive() {
    try {
      await this.#listening;
    } catch {
      // the last attempt failed (database down): try again below
      this.#lastPing = 0;
    }
    try {
      await this.#sql`select pg_notify(${PING_CHANNEL}, '')`;
    } catch {
      return; // database down: nothing to recover yet
    }
    if (Date.now() - this.#lastPing > SILENCE_LIMIT_MS) this.#listening = this.#listen();
  }

  #publish(payload: string) {
    let update: MatchUpdate;
    try {
      update = JSON.parse(payload);
    } catch {
      return;
    }
    for (const listener of this.#listeners) listener(update);
  }
}
