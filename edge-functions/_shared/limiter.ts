/**
 * At most `concurrency` tasks of one kind at once in this process; later ones wait their turn in order.
 * The queue is bounded too: beyond `maxWaiting` waiting tasks a new one is refused at once (503 with
 * Retry-After), rather than held in memory for longer than a client would wait for its answer.
 */
import { HttpError, SERVICE_UNAVAILABLE } from './errors.ts';

export class Limiter {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    readonly retryAfterSeconds = 1,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running < this.concurrency) {
      this.#running += 1;
    } else {
      if (this.#waiting.length >= this.maxWaiting)
        throw new HttpError(503, SERVICE_UNAVAILABLE, this.retryAfterSeconds);
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      // hand the slot to the next in line, or give it up
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }
}
