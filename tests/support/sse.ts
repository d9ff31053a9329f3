/**
 * A test client of `GET /api/live/matches` (Server-Sent Events). `subscribe` resolves once the server has
 * said `: connected`, which it does only when its match feed listens: no later update can be missed.
 */
import { expect } from 'vitest';

/** A `match` event's data: the match as GET /api/matches/{id} answers it. */
export type MatchEvent = { id: number; status: string } & Record<string, unknown>;

export interface SseClient {
  /** Resolves with the next `match` event's data (the match, parsed), or rejects after `ms` (default 5 s). */
  next(ms?: number): Promise<MatchEvent>;
  /**
   * The next event that `wanted` accepts, skipping earlier states (a change committed just before the
   * subscription, e.g. the match's start, may still be on its way to the server when the client connects).
   */
  nextWhere(wanted: (event: MatchEvent) => boolean, ms?: number): Promise<MatchEvent>;
  /** The `result` events received so far (a signed-in player's own settled bets). */
  readonly results: Record<string, unknown>[];
  /** The `id:` of the last `match` event received (what a browser sends back as Last-Event-ID). */
  readonly lastEventId: string | undefined;
  /** How many `gap` events arrived (each tells the client to refetch once). */
  readonly gaps: number;
  /** Settles when the server has ended the stream (or the client closed it). */
  readonly ended: Promise<void>;
  close(): void;
}

export async function subscribe(
  url: string,
  { lastEventId, cookie }: { lastEventId?: string; cookie?: string | null } = {},
): Promise<SseClient> {
  const abort = new AbortController();
  const response = await fetch(url, {
    signal: abort.signal,
    headers: {
      accept: 'text/event-stream',
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      ...(cookie ? { cookie } : {}),
    },
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const events: MatchEvent[] = [];
  const results: Record<string, unknown>[] = [];
  let lastId: string | undefined;
  let gaps = 0;
  let waiting: (() => void) | undefined;
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
          if (lines[0].startsWith(': connected')) connected();
          if (field('event') === 'gap') gaps += 1;
          const data = field('data');
          if (field('event') === 'result' && data) results.push(JSON.parse(data));
          if (field('event') === 'match' && data) {
            events.push(JSON.parse(data));
            lastId = field('id');
            waiting?.();
          }
        }
      }
    } catch {
      // aborted
    }
  })();
  await ready;
  const client: SseClient = {
    async next(ms = 5000) {
      const deadline = Date.now() + ms;
      while (events.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no match event within ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiting = resolve;
          setTimeout(resolve, left);
        });
      }
      return events.shift()!;
    },
    async nextWhere(wanted, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const event = await client.next(Math.max(deadline - Date.now(), 1));
        if (wanted(event)) return event;
      }
    },
    get lastEventId() {
      return lastId;
    },
    get gaps() {
      return gaps;
    },
    ended,
    results,
    close: () => abort.abort(),
  };
  return client;
}
