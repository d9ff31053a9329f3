/**
 * How a crowd follows a live match: pushed changes (Realtime Broadcast on Supabase, Server-Sent Events
 * locally) while the page has its channel, and when the channel is refused, over its quota or lost, a poll of
 * the public match that a shared cache (a CDN in front of the API) answers for everyone at once. Shared by
 * the API (the header of public match answers), the SPA (the poll) and the tests.
 */

/** How long a shared cache (a CDN) may keep a public match answer before asking again. */
export const PUBLIC_MATCH_SHARED_SECONDS = 2;

/**
 * How long the browser may keep one: shorter than a shared cache, so that with the stale-while-revalidate
 * window a browser's copy is never old enough to answer the next poll (MATCH_POLL_MS − MATCH_POLL_JITTER_MS
 * away) — every poll asks the shared cache.
 */
export const PUBLIC_MATCH_BROWSER_SECONDS = 1;

/**
 * The Cache-Control of public match answers (the live and upcoming lists, a match): the same for every
 * caller, so any shared cache may keep them; after their lifetime a busy cache answers with the one it has
 * while it fetches the next (stale-while-revalidate), so a crowd costs the API a few requests a second, not
 * one per viewer. Every other answer of the API is `private, no-store`.
 */
export const PUBLIC_MATCH_CACHE_CONTROL =
  `public, max-age=${PUBLIC_MATCH_BROWSER_SECONDS}, s-maxage=${PUBLIC_MATCH_SHARED_SECONDS}, ` +
  `stale-while-revalidate=${PUBLIC_MATCH_SHARED_SECONDS}`;

/** The Cache-Control of every answer that is not a public match read. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * While live updates are delayed the page polls its match every MATCH_POLL_MS ± MATCH_POLL_JITTER_MS: the
 * jitter keeps a crowd that lost its channel at the same instant from polling in step.
 */
export const MATCH_POLL_MS = 5_000;
export const MATCH_POLL_JITTER_MS = 1_000;
