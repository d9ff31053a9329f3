/**
 * Live match updates for the local runtime: ONE `LISTEN match_updates` connection per process fans the
 * database's notifications (migration trigger on public.matches) out to every subscriber (SSE client),
 * however many there are.
 *
 * Recovery: postgres.js re-issues LISTEN when its connection drops, but gives up silently if Postgres is
 * still down at that moment. So the feed pings itself through the ordinary pool on a second channel;
 * when pings stop arriving while the database answers, it listens again. After Postgres restarts, updates
 * flow again within a few seconds.
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
  readonly #listeners = new Set<Listener>();
  #unlisten: Array<() => Promise<void>> = [];
  #lastPing = 0;
  #timer?: ReturnType<typeof setInterval>;
  #listening?: Promise<void>;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  /** Adds a subscriber; the returned function removes it. The first subscriber starts the LISTEN. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    this.#start();
    return () => this.#listeners.delete(listener);
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
    await Promise.all(this.#unlisten.map((unlisten) => unlisten().catch(() => {})));
    this.#lastPing = Date.now();
    const updates = await this.#sql.listen(CHANNEL, (payload) => this.#publish(payload));
    const pings = await this.#sql.listen(PING_CHANNEL, () => (this.#lastPing = Date.now()));
    this.#unlisten = [updates.unlisten, pings.unlisten];
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
