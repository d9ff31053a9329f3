/**
 * A live stream lives no longer than the session that opened it: the stream carries that player's own
 * results, so once the session has ended (signed out, everywhere or from another device; banned, suspended or
 * any change of status or role; a new password or second factor; expired) the stream closes, and the
 * browser's reconnection is a stream of public match changes like any visitor's.
 *
 * The database announces every session that ends (a trigger on app.sessions sends their ids on
 * `sessions_ended`); the match feed hears it on the process's one LISTEN connection and the streams of those
 * sessions close at once: no query per event, per client or per second. What the LISTEN may have missed while
 * it was down, and sessions that simply ran out of time, are found by ONE query for every session with a
 * stream open here (app.ended_sessions): when the LISTEN is back, and every minute.
 */
import type { Sql } from '@shared/db.ts';
import type { MatchFeed } from '@shared/match-feed.ts';

const CHECK_EVERY_MS = 60_000;
/**
 * Sessions ended lately: a stream that authenticated just before its session ended may register after the
 * announcement went by.
 */
const RECENTLY_ENDED = 1024;

export class SessionStreams {
  readonly #sql: Sql;
  /** The close functions of the streams open here, by the id of the session that opened each. */
  readonly #streams = new Map<number, Set<() => void>>();
  readonly #recentlyEnded: number[] = [];
  #timer?: ReturnType<typeof setInterval>;

  constructor(sql: Sql, feed: MatchFeed) {
    this.#sql = sql;
    feed.onSessionsEnded((ids) => this.#end(ids));
    feed.onRelisten(() => void this.#check());
  }

  /** `close` runs when session `sessionId` ends (at once if it just has); the returned function forgets it. */
  add(sessionId: number, close: () => void): () => void {
    if (this.#recentlyEnded.includes(sessionId)) {
      close();
      return () => {};
    }
    const streams = this.#streams.get(sessionId) ?? new Set<() => void>();
    streams.add(close);
    this.#streams.set(sessionId, streams);
    this.#timer ??= setInterval(() => void this.#check(), CHECK_EVERY_MS);
    return () => {
      streams.delete(close);
      if (streams.size === 0 && this.#streams.get(sessionId) === streams) this.#streams.delete(sessionId);
      if (this.#streams.size === 0) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  #end(ids: number[]) {
    for (const id of ids) {
      this.#recentlyEnded.push(id);
      for (const close of this.#streams.get(id) ?? []) close();
    }
    this.#recentlyEnded.splice(0, this.#recentlyEnded.length - RECENTLY_ENDED);
  }

  async #check() {
    const open = [...this.#streams.keys()];
    if (open.length === 0) return;
    try {
      const rows = await this.#sql`select app.ended_sessions(${open}) as id`;
      this.#end(rows.map((row) => row.id as number));
    } catch (error) {
      // the database away: the next check (or the LISTEN when it is back) tells
      console.error(JSON.stringify({ level: 'warn', msg: 'session check failed', error: (error as Error).message }));
    }
  }
}
