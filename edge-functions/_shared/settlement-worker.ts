/**
 * Settles the bets of completed matches from this process: `app.settle_step()` again and again, each call its
 * own transaction (settle a batch no other worker holds, else claim the next one), until it answers 'idle'
 * (supabase/schemas/35_settlement.sql says how a run proceeds). Every server process does it when the database
 * announces a run (`settlement` notifications, heard by the match feed's LISTEN connection) and when that
 * LISTEN is in place again after the database was away, so the cores settle one match side by side and a run
 * that a crash or a restart interrupted goes on as soon as the database is back; and on a timer, for what
 * else may have been missed. A step runs like a request's transaction (db.ts): a pool that failed under it is
 * renewed, and a stalled one is never cut off while its commit may be on its way.
 * One call at a time per process: a kick that comes while one runs asks for one more round after it.
 */
import { keepAliveUntil, transaction, type Sql } from './db.ts';

export class SettlementWorker {
  readonly #sql: Sql;
  /** null: app.settle_step's own default */
  readonly #batchSize: number | null;
  #running: Promise<void> | null = null;
  #again = false;
  #timer?: ReturnType<typeof setInterval>;

  constructor(sql: Sql, batchSize: number | null) {
    this.#sql = sql;
    this.#batchSize = batchSize;
  }

  /** Settles every unfinished run now (or once more after the round in progress); settles when done. */
  kick(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#rounds().finally(() => (this.#running = null));
    return this.#running;
  }

  /**
   * Kicks for a run this request just started, kept alive past the answer (db.ts `keepAliveUntil`: on
   * Supabase's edge runtime the instance may be stopped once the answer is sent; locally, every process also
   * hears the run's notification).
   */
  kickAfterAnswer(): void {
    keepAliveUntil(this.kick());
  }

  /** Kicks now and every `seconds`: the sweep of the local runtime (on Supabase, pg_cron sweeps). */
  sweepEvery(seconds: number): void {
    void this.kick();
    this.#timer ??= setInterval(() => void this.kick(), seconds * 1000);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #rounds() {
    do {
      this.#again = false;
      try {
        while ((await this.#step()) !== 'idle');
      } catch (error) {
        // the database away, or a run that does not add up (app.finish_settlement says which): the run stays
        // open, and the next kick (the database back) or sweep tries again
        const { code, message } = error as { code?: string; message?: string };
        console.error(JSON.stringify({ level: 'error', msg: 'settlement failed', code, error: message }));
      }
    } while (this.#again);
  }

  async #step(): Promise<string> {
    const [[row]] = await transaction(this.#sql, (q) => [
      this.#batchSize === null
        ? q`select app.settle_step() as step`
        : q`select app.settle_step(${this.#batchSize}) as step`,
    ]);
    return row.step as string;
  }
}
