/**
 * Pushes the results of their bets to the players who have a live stream open on this process: when a batch
 * of a settlement run is settled, the database names its range of players (`bet_results`, heard by the match
 * feed); the players of that range connected here get their results (app.bet_results: one query for all of
 * them) as an `event: result` on their own streams, and nobody else's. A player with no stream open learns
 * the results from their bets and balance when they next look.
 */
import type { Sql } from '@shared/db.ts';
import type { MatchFeed, SettledBatch } from '@shared/match-feed.ts';

type Send = (frame: Uint8Array) => void;
const encoder = new TextEncoder();

export class PlayerResults {
  readonly #sql: Sql;
  /** The open streams of each signed-in player connected to this process. */
  readonly #streams = new Map<number, Set<Send>>();

  constructor(sql: Sql, feed: MatchFeed) {
    this.#sql = sql;
    feed.onBetResults((batch) => void this.#push(batch));
  }

  /** A player's stream now receives their results; the returned function stops it. */
  add(userId: number, send: Send): () => void {
    const streams = this.#streams.get(userId) ?? new Set<Send>();
    streams.add(send);
    this.#streams.set(userId, streams);
    return () => {
      streams.delete(send);
      if (streams.size === 0 && this.#streams.get(userId) === streams) this.#streams.delete(userId);
    };
  }

  async #push(batch: SettledBatch) {
    const players = [...this.#streams.keys()].filter((id) => id >= batch.first_user_id && id <= batch.last_user_id);
    if (players.length === 0) return;
    try {
      const rows = await this.#sql`
        select r.user_id, r.result::text as result from app.bet_results(${batch.match_id}, ${players}) r`;
      for (const row of rows) {
        const frame = encoder.encode(`event: result\ndata: ${row.result}\n\n`);
        for (const send of this.#streams.get(row.user_id as number) ?? []) send(frame);
      }
    } catch (error) {
      // the database away: the players see their results when they next look
      console.error(JSON.stringify({ level: 'warn', msg: 'results not pushed', error: (error as Error).message }));
    }
  }
}
