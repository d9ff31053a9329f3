/**
 * Live match updates: ONE `LISTEN match_updates` connection per process fans the database's notifications
 * (the trigger on public.matches sends the match itself, as the API answers it) out to every subscriber
 * (SSE client), however many there are. It also tells the public match reads whether anything changed
 * since they last read (`changes`, `isLive`): a conditional GET can then be answered without the database.
 *
 * Recovery: postgres.js re-issues LISTEN when its connection drops, but if Postgres is still down (or
 * shutting down) at that moment the failed LISTEN stays cached in the client for good. So the feed owns a
 * dedicated client for listening and pings itself through the ordinary pool on a second channel; when
 * pings stop arriving while the database answers, it throws that client away and listens on a new one.
 * After Postgres restarts, updates flow again within a few seconds.
 */
import type { Sql } from './db.ts';

/** A match change: the match as the API answers it (`data`, the notification's text) and its key fields. */
export interface MatchUpdate {
  id: number;
  status: string;
  version: number;
  data: string;
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
  #listeningNow = false;
  #changes = 0;

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

  /** How many match changes this process has heard of (it only grows). */
  get changes(): number {
    return this.#changes;
  }

  /**
   * True while the LISTEN is in place and its pings arrive: every change committed from now on will be
   * heard. Starts the feed if nobody had subscribed yet.
   */
  isLive(): boolean {
    this.#start();
    return this.#listeningNow && Date.now() - this.#lastPing <= SILENCE_LIMIT_MS;
  }

  #start() {
    if (this.#timer !== undefined) return;
    this.#listening = this.#listen();
    this.#timer = setInterval(() => this.#checkAlive(), PING_EVERY_MS);
  }

  async #listen() {
    this.#listeningNow = false;
    const previous = this.#listenClient;
    const client = (this.#listenClient = this.#openListenClient());
    await previous?.end({ timeout: 0 }).catch(() => {});
    this.#lastPing = Date.now();
    // Each (re)connection of the LISTEN may follow a gap in which changes went unheard: count one, so no
    // reader trusts what it knew before.
    await client.listen(CHANNEL, (payload) => this.#publish(payload), () => (this.#changes += 1));
    await client.listen(PING_CHANNEL, () => (this.#lastPing = Date.now()));
    this.#listeningNow = true;
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
    this.#changes += 1;
    let update: MatchUpdate;
    try {
      const { id, status, version } = JSON.parse(payload);
      update = { id, status, version, data: payload };
    } catch {
      return;
    }
    for (const listener of this.#listeners) listener(update);
  }
}
