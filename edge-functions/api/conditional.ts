/**
 * Cheap public reads (ARCHITECTURE.md §9): match lists and a match are the same for everyone, and pages
 * ask for them again and again (the 30 s poll, refetch on focus). They answer with an ETag and honour
 * If-None-Match with 304 Not Modified.
 *
 * The ETag is a hash of the body, so it means the same whichever server process answers. Each process also
 * remembers, per URL, the ETag of its last answer and how many match changes its live feed had heard when
 * that read was sent: while the feed is live and has heard nothing since, the database cannot have
 * anything newer, and a request with that ETag gets its 304 without a database round trip.
 */
import type { MatchFeed } from '../_shared/match-feed.ts';
import { sendJson, type Ctx, type DatabaseAnswer } from './context.ts';
import { sha256Hex } from './session.ts';

const MAX_REMEMBERED = 1000;

export class ConditionalReads {
  readonly #feed: MatchFeed;
  /** URL → the ETag of the last answer and the feed's change count when its read was sent. */
  readonly #known = new Map<string, { etag: string; changes: number }>();

  constructor(feed: MatchFeed) {
    this.#feed = feed;
  }

  /** Answers `read`'s body with its ETag, or 304 when the client already has it. */
  async answer(c: Ctx, read: () => Promise<string>): Promise<DatabaseAnswer> {
    const url = c.req.url;
    const wanted = c.req.header('if-none-match');
    const known = this.#known.get(url);
    if (wanted && known && matches(wanted, known.etag) && known.changes === this.#feed.changes && this.#feed.isLive()) {
      return notModified(c, known.etag);
    }
    const changes = this.#feed.isLive() ? this.#feed.changes : undefined;
    const body = await read();
    const etag = `W/"${(await sha256Hex(body)).slice(0, 32)}"`;
    if (changes !== undefined) this.#remember(url, { etag, changes });
    if (wanted && matches(wanted, etag)) return notModified(c, etag);
    c.header('ETag', etag);
    c.header('Cache-Control', 'no-cache');
    return sendJson(c, body);
  }

  #remember(url: string, entry: { etag: string; changes: number }) {
    this.#known.delete(url);
    this.#known.set(url, entry);
    // Map keeps insertion order: drop the least recently answered URL.
    if (this.#known.size > MAX_REMEMBERED) this.#known.delete(this.#known.keys().next().value!);
  }
}

/** If-None-Match holds a list of ETags (weak comparison) or `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
}

function notModified(c: Ctx, etag: string): DatabaseAnswer {
  c.header('ETag', etag);
  c.header('Cache-Control', 'no-cache');
  return c.body(null, 304) as unknown as DatabaseAnswer;
}
