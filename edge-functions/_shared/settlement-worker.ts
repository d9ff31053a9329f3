/**
 * Settles the bets of completed matches from this process: `app.settle_step()` again and again, each call its
 * own transaction (settle a batch no other worker holds, else claim the next one), until it answers 'idle'
 * (supabase/schemas/35_settlement.sql says how a run proceeds). Every server process does it when the database
 * announces a run (`settlement` notifications, heard by the match feed's LISTEN connection), so the cores
 * settle one match side by side, and on a timer, which finishes a run that a crash or a restart interrupted.
 * One call at a time per process: a kick that comes while one runs asks for one more round after it.
 */
import type { Sql } from './db.ts';

export class SettlementWorker {
  readonly #sql: Sql;
  readonly #batchSize: number;
  #running: Promise<void> | null = null;
  #again = false;
  #timer?: ReturnType<typeof setInterval>;

  constructor(sql: Sql, batchSize: number) {
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
   * Kicks for a run this request just started. On Supabase's edge runtime the instance may be stopped once
   * the answer is sent, so the work is handed to `EdgeRuntime.waitUntil`, which keeps it alive until done
   * (locally, every process also hears the run's notification).
   */
  kickAfterAnswer(): void {
    const work = this.kick();
    (globalThis as { EdgeRuntime?: { waitUntil(work: Promise<unknown>): void } }).EdgeRuntime?.waitUntil(work);
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
        while ((await this.#sql`select app.settle_step(${this.#batchSize}) as step`)[0].step !== 'idle');
      } catch (error) {
        // the database away, or a run that does not add up (app.finish_settlement says which): the run stays
        // open, and the next kick or sweep tries again
        const { code, message } = error as { code?: string; message?: string };
        console.error(JSON.stringify({ level: 'error', msg: 'settlement failed', code, error: message }));
      }
    } while (this.#again);
  }
}
