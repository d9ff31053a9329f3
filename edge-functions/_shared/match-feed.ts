/**
 * Live match updates: ONE `LISTEN match_updates` connection per process fans the database's notifications
 * (the trigger on public.matches sends the match itself, as the API answers it) out to every subscriber
 * (SSE client), however many there are. It also tells the public match reads whether anything changed
 * since they last read (`changes`, `isLive`): a conditional GET can then be answered without the database.
 *
 * Each event is numbered and turned into its Server-Sent Events frame once, here, for every client: the
 * SSE id is `<this process's id>-<sequence>`, and the last RECENT_EVENTS frames are kept so a client that
 * reconnects with Last-Event-ID gets exactly what it missed (`since`). What cannot be replayed — an id of
 * another process (several serve one port) or of a restarted one, an id older than the buffer, or a time
 * when the LISTEN itself was down — is a gap: the client refetches once.
 *
 * The same connection hears the settlement's notifications: a run to settle (`settlement`, for the
 * settlement worker) and a batch of players whose bets were just settled (`bet_results`, for the pushes of
 * their results); and the sessions that have ended (`sessions_ended`, so the streams they opened close), so a
 * process holds one LISTEN connection whatever it listens for.
 *
 * Recovery: the LISTEN has a connection of its own (db.ts `listenConnection`), which postgres.js does not
 * reopen; when it is lost, the feed listens again on a new one, and keeps trying every RELISTEN_EVERY_MS
 * until the database takes it, so updates flow again, and jobs resume, within moments of the database
 * coming back. A connection can also die without a word (a half-open TCP connection): the feed pings itself
 * through the ordinary pool on a second channel, and when pings stop arriving while the database answers,
 * it listens anew.
 *
 * Every time the LISTEN is in place — the first time, and after each loss — the settlement listeners run as
 * if a run had been announced: a run may be unfinished (a crash or a restart cut it off) or its
 * announcement may have gone unheard, and whatever is left is worked on at once, not at the next event or
 * sweep.
 */
import type { listenConnection, Sql } from './db.ts';

/** A match change as clients get it: the match's id, and the SSE frame (`id:`, `event: match`, the match). */
export interface MatchEvent {
  seq: number;
  matchId: number;
  frame: Uint8Array;
}
/** Makes the client of the LISTEN connection (db.ts `listenConnection` with its URL). */
export type ListenClientFactory = (on: Parameters<typeof listenConnection>[1]) => Sql;
/** `'gap'`: changes may have gone unheard (the LISTEN was down); clients must refetch once. */
type Listener = (event: MatchEvent | 'gap') => void;
/** A settled batch: the players (a range of ids) of a match whose bets now have their results. */
export interface SettledBatch {
  match_id: number;
  first_user_id: number;
  last_user_id: number;
}

const CHANNEL = 'match_updates';
const SETTLEMENT_CHANNEL = 'settlement';
const RESULTS_CHANNEL = 'bet_results';
const SESSIONS_CHANNEL = 'sessions_ended';
const PING_CHANNEL = 'match_updates_ping';
const CHANNELS = [CHANNEL, SETTLEMENT_CHANNEL, RESULTS_CHANNEL, SESSIONS_CHANNEL, PING_CHANNEL];
const PING_EVERY_MS = 5_000;
const SILENCE_LIMIT_MS = 12_000;
/** How soon the LISTEN is tried again while the database does not take it. */
const RELISTEN_EVERY_MS = 250;
/** Events kept for Last-Event-ID (a few minutes of a busy match day). */
const RECENT_EVENTS = 1024;
const encoder = new TextEncoder();

export class MatchFeed {
  readonly #sql: Sql;
  readonly #openListenClient: ListenClientFactory;
  readonly #listeners = new Set<Listener>();
  readonly #settlementListeners = new Set<() => void>();
  readonly #resultListeners = new Set<(batch: SettledBatch) => void>();
  readonly #sessionListeners = new Set<(ids: number[]) => void>();
  readonly #relistenListeners = new Set<() => void>();
  #listenClient?: Sql;
  #lastPing = 0;
  #timer?: ReturnType<typeof setInterval>;
  #listening: Promise<void> = Promise.resolve();
  #listeningNow = false;
  #relistening = false;
  #changes = 0;
  /** This process's part of the SSE ids: events of another process (or of a restarted one) cannot be replayed. */
  readonly #feedId = crypto.randomUUID().slice(0, 8);
  #seq = 0;
  /** The last RECENT_EVENTS events, oldest first. */
  #recent: MatchEvent[] = [];
  /** The sequence number at the latest gap: nothing from before it can be replayed. */
  #gapAt = 0;
  #listenedBefore = false;

  /** `sql` is the pool (for pings); `openListenClient` makes the dedicated client that holds the LISTEN. */
  constructor(sql: Sql, openListenClient: ListenClientFactory) {
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
   * `listener` runs whenever a settlement run is started, and whenever the LISTEN is (again) in place: work
   * may be waiting. Listens from now on.
   */
  onSettlement(listener: () => void): void {
    this.#settlementListeners.add(listener);
    this.#start();
  }

  /** `listener` runs for every settled batch of players. Listens from now on. */
  onBetResults(listener: (batch: SettledBatch) => void): void {
    this.#resultListeners.add(listener);
    this.#start();
  }

  /** `listener` runs with the ids of sessions that have just ended. Listens from now on. */
  onSessionsEnded(listener: (ids: number[]) => void): void {
    this.#sessionListeners.add(listener);
    this.#start();
  }

  /**
   * `listener` runs whenever the LISTEN is in place again after it was lost: notifications may have gone
   * unheard meanwhile.
   */
  onRelisten(listener: () => void): void {
    this.#relistenListeners.add(listener);
  }

  /**
   * Settles once the LISTEN is in place (while the database is away, once it is back). A stream tells its
   * client it is connected only after this, so no update committed after that point is missed.
   */
  ready(): Promise<void> {
    return this.#listening.catch(() => {});
  }

  get subscribers(): number {
    return this.#listeners.size;
  }

  /**
   * What a client that last saw `lastEventId` missed, from the newest events kept: the events after it (none
   * when it is up to date), or 'gap' when they cannot be told (see the file's header). Without an id: none.
   */
  since(lastEventId: string | undefined): MatchEvent[] | 'gap' {
    if (!lastEventId) return [];
    const [feedId, seqText] = lastEventId.split('-');
    const seq = Number(seqText);
    if (feedId !== this.#feedId || !Number.isInteger(seq) || seq > this.#seq || seq < this.#gapAt) return 'gap';
    const oldest = this.#recent[0]?.seq ?? this.#seq + 1;
    if (seq < oldest - 1) return 'gap';
    return this.#recent.filter((event) => event.seq > seq);
  }

  /**
   * This process has just changed a match: readers must not trust what they knew before, even while its
   * notification is still on its way.
   */
  changedHere(): void {
    this.#changes += 1;
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
    this.#relisten();
    this.#timer = setInterval(() => this.#checkAlive(), PING_EVERY_MS);
  }

  /** Listens on a new connection (the previous one, if any, is closed). */
  async #listen() {
    this.#listeningNow = false;
    const previous = this.#listenClient;
    const client: Sql = (this.#listenClient = this.#openListenClient({
      notify: (channel, payload) => this.#notified(channel, payload),
      lost: () => {
        if (client !== this.#listenClient) return; // one given up on
        this.#listeningNow = false;
        this.#relisten();
      },
    }));
    await previous?.end({ timeout: 0 }).catch(() => {});
    this.#lastPing = Date.now();
    await client.unsafe(CHANNELS.map((channel) => `listen ${channel}`).join('; '));
    this.#listeningNow = true;
    this.#listened();
  }

  /** Listens anew, trying every RELISTEN_EVERY_MS until the database takes it (one such loop at a time). */
  #relisten() {
    if (this.#relistening) return;
    this.#relistening = true;
    this.#listening = (async () => {
      try {
        for (;;) {
          try {
            return await this.#listen();
          } catch {
            await new Promise((resolve) => setTimeout(resolve, RELISTEN_EVERY_MS));
          }
        }
      } finally {
        this.#relistening = false;
      }
    })();
  }

  async #checkAlive() {
    try {
      await this.#sql`select pg_notify(${PING_CHANNEL}, '')`;
    } catch {
      return; // database down: the LISTEN is being tried again, or will be once it is lost
    }
    if (Date.now() - this.#lastPing > SILENCE_LIMIT_MS) this.#relisten();
  }

  #notified(channel: string, payload: string) {
    if (channel === CHANNEL) this.#publish(payload);
    else if (channel === PING_CHANNEL) this.#lastPing = Date.now();
    else if (channel === SETTLEMENT_CHANNEL) this.#settlementListeners.forEach((listener) => listener());
    else if (channel === RESULTS_CHANNEL) {
      const batch = JSON.parse(payload) as SettledBatch;
      this.#resultListeners.forEach((listener) => listener(batch));
    } else if (channel === SESSIONS_CHANNEL) {
      const ids = JSON.parse(payload) as number[];
      this.#sessionListeners.forEach((listener) => listener(ids));
    }
  }

  /**
   * The LISTEN is in place. After the first time, changes may have gone unheard meanwhile: count one, so no
   * reader trusts what it knew before, and tell every client to refetch once. Every time, work may wait.
   */
  #listened() {
    if (this.#listenedBefore) {
      this.#changes += 1;
      this.#gapAt = this.#seq;
      for (const listener of this.#listeners) listener('gap');
      for (const listener of this.#relistenListeners) listener();
    }
    this.#listenedBefore = true;
    this.#settlementListeners.forEach((listener) => listener());
  }

  #publish(payload: string) {
    this.#changes += 1;
    let matchId: number;
    try {
      matchId = JSON.parse(payload).id;
    } catch {
      return;
    }
    const seq = ++this.#seq;
    // The payload is one line of JSON (jsonb's text form has no line breaks), so one `data:` line holds it.
    const frame = encoder.encode(`id: ${this.#feedId}-${seq}\nevent: match\ndata: ${payload}\n\n`);
    const event = { seq, matchId, frame };
    this.#recent.push(event);
    if (this.#recent.length > RECENT_EVENTS) this.#recent.shift();
    for (const listener of this.#listeners) listener(event);
  }
}
