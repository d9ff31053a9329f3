/**
 * Cheap public reads: match lists and a match are the same for everyone, and on match day everyone asks for
 * them at once and again and again (the poll of a page whose live updates are delayed, refetch on focus,
 * every page).
 *
 * Each answer says `Cache-Control: public` with a lifetime of a few seconds (src/domain/live-updates.ts), so
 * a shared cache in front of the API — a CDN, the static host's rewrite — answers a crowd with a few requests
 * a second to us; the answer is built for the anonymous role whoever asks (no cookie, no session, nothing
 * personal in it), so one copy serves everyone. It carries an ETag (a hash of the body, so it means the same
 * whichever server process answers) and a matching If-None-Match gets 304 Not Modified, so a cache
 * revalidates without the body. Each process also keeps its latest answers, with how many match changes its
 * live feed had heard when their read was sent: while the feed is live and has heard nothing since, the
 * database cannot have anything newer, so the answer is served from memory — a 304, or the body itself —
 * with no database work at all. Every match change (the feed hears the trigger's notification; this
 * process's own admin writes count at once, before their answer leaves) makes the next read go to the
 * database. A request with `Cache-Control: no-cache` (a hard reload) always does.
 *
 * Bounded: at most MAX_ANSWERS answers of at most MAX_BYTES in all; keys are the route's validated
 * parameters (`list:live`, `match:42`), never raw URLs, and a 404 is never kept (nor shared: errors are
 * private, middleware.ts).
 */
import type { MatchFeed } from '@shared/match-feed.ts';
import { sha256Hex } from '@shared/sha256.ts';
import { PUBLIC_MATCH_CACHE_CONTROL } from '@/domain/live-updates.ts';
import type { RouteConfig } from '@hono/zod-openapi';
import { notModified, sendJson, type Answer, type AnswerStatus, type Ctx } from './context.ts';

const MAX_ANSWERS = 1000;
const MAX_BYTES = 16 * 1024 * 1024;

interface Kept {
  body: string;
  etag: string;
  /** The feed's change count when the read that produced this answer was sent. */
  changes: number;
}

export class PublicMatchReads {
  readonly #feed: MatchFeed;
  /** Oldest first (a Map keeps insertion order): the first ones go when a bound is reached. */
  readonly #answers = new Map<string, Kept>();
  #bytes = 0;

  constructor(feed: MatchFeed) {
    this.#feed = feed;
  }

  /**
   * Answers the read under `key` as route R's 200 (or a 304): from memory while nothing can have changed, else
   * from `read` (the database).
   */
  async answer<R extends RouteConfig & { responses: { 200: object; 304: object } }>(
    c: Ctx,
    key: string,
    read: () => Promise<string>,
  ): Promise<Answer<R> | ReturnType<typeof notModified<R>>> {
    const wanted = c.req.header('if-none-match');
    const kept = this.#answers.get(key);
    const current = kept && kept.changes === this.#feed.changes && this.#feed.isLive();
    if (current && wanted && matches(wanted, kept.etag)) return unchanged<R>(c, kept.etag);
    if (current && !/no-cache/i.test(c.req.header('cache-control') ?? '')) return send<R>(c, kept);

    const changes = this.#feed.isLive() ? this.#feed.changes : undefined;
    const body = await read();
    const fresh = { body, etag: `W/"${sha256Hex(body).slice(0, 32)}"`, changes: changes ?? -1 };
    if (changes !== undefined) this.#keep(key, fresh);
    if (wanted && matches(wanted, fresh.etag)) return unchanged<R>(c, fresh.etag);
    return send<R>(c, fresh);
  }

  #keep(key: string, answer: Kept) {
    const previous = this.#answers.get(key);
    if (previous) this.#bytes -= previous.body.length;
    this.#answers.delete(key);
    this.#answers.set(key, answer);
    this.#bytes += answer.body.length;
    while (this.#answers.size > MAX_ANSWERS || this.#bytes > MAX_BYTES) {
      const [oldest, dropped] = this.#answers.entries().next().value!;
      this.#answers.delete(oldest);
      this.#bytes -= dropped.body.length;
    }
  }
}

/** If-None-Match holds a list of ETags (weak comparison) or `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
}

function send<R extends RouteConfig>(c: Ctx, answer: Kept): Answer<R> {
  c.header('ETag', answer.etag);
  c.header('Cache-Control', PUBLIC_MATCH_CACHE_CONTROL);
  return sendJson<R>(c, answer.body, 200 as AnswerStatus<R>);
}

function unchanged<R extends RouteConfig>(c: Ctx, etag: string) {
  c.header('ETag', etag);
  c.header('Cache-Control', PUBLIC_MATCH_CACHE_CONTROL);
  return notModified<R>(c);
}
