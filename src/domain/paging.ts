/**
 * Keyset pages of the API's lists, shared by the API and the SPA. A list answers a
 * JSON array of at most `limit` rows (default 50, at most 200), newest first; when more rows follow, the
 * `Link` header names the next page: `<…same query…&cursor=…>; rel="next"`. The cursor is opaque to
 * clients (base64url of the last row's id): the next page holds the rows older than it, so rows inserted
 * while a client walks the list never show up twice and none that existed is skipped. The API validates
 * `?limit=&cursor=` with edge-functions/api/paging.ts's `pageQuery`.
 */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export const INVALID_LIMIT = `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`;
export const INVALID_CURSOR = 'Invalid cursor';

/** The id a cursor stands for, or null when it is not one of ours. */
/** A cursor's characters: base64url of a row id, without padding. */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,24}$/;

export function decodeCursor(cursor: string): number | null {
  if (!CURSOR_PATTERN.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    return null;
  }
  if (!/^[1-9][0-9]{0,14}$/.test(text)) return null;
  return Number(text);
}

export function encodeCursor(id: number): string {
  return btoa(String(id)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The URL of the next page in a `Link` header, or null on the last page. */
export function nextPageUrl(link: string | null): string | null {
  const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(link ?? '');
  return match ? match[1] : null;
}
