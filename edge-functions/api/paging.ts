/**
 * Keyset pages (src/domain/paging.ts has the contract): one statement fetches `limit + 1` rows from the
 * cursor on, answers the first `limit` as the JSON body and, when the extra row exists, the id to continue
 * from — so knowing whether there is a next page costs no second query. Never `offset`: a page costs one
 * index range however deep into the list it is.
 */
import { z } from 'zod';
import {
  DEFAULT_PAGE_SIZE,
  INVALID_CURSOR,
  INVALID_LIMIT,
  MAX_PAGE_SIZE,
  CURSOR_PATTERN,
  decodeCursor,
  encodeCursor,
} from '@/domain/paging.ts';
import type { Rows, Sql, Statement } from '@shared/db.ts';
import type { RouteConfig } from '@hono/zod-openapi';
import { sendJson, type Answer, type AnswerStatus, type Ctx } from './context.ts';

/** `?limit=` and `?cursor=` of every list. */
export const pageQuery = z.object({
  limit: z.coerce
    .number({ error: INVALID_LIMIT })
    .int(INVALID_LIMIT)
    .min(1, INVALID_LIMIT)
    .max(MAX_PAGE_SIZE, INVALID_LIMIT)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Rows per page: 1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}.`),
  cursor: z
    .string()
    .regex(CURSOR_PATTERN, INVALID_CURSOR)
    .refine((value) => decodeCursor(value) !== null, INVALID_CURSOR)
    .optional()
    .describe('Opaque: take it from the `Link: <…>; rel="next"` header of the previous page.'),
});

export interface Page {
  limit: number;
  /** The id the previous page ended at (rows beyond it follow), or null for the first page. */
  after: number | null;
}

/** The page a validated `?limit=&cursor=` asks for. */
export function pageOf(input: z.infer<typeof pageQuery>): Page {
  return { limit: input.limit, after: input.cursor === undefined ? null : decodeCursor(input.cursor) };
}

/** A piece of SQL (a postgres.js tagged template used inside another). */
export type Fragment = Statement;

export interface PageSource {
  /**
   * The rows' table (or set-returning function) with its alias, e.g. q`public.bets b`; or a function of the
   * page's keyset condition (e.g. `and t.id < 42`) for a from-item that must apply it inside (a union).
   */
  from: Fragment | ((beyond: Fragment) => Fragment);
  /** The alias used in `from`. */
  alias: string;
  /** The list's filter, e.g. q`b.user_id = ${id}`; every row when omitted. */
  where?: Fragment;
  /**
   * The page's JSON array: `row` gives the JSON of one row, given the row (e.g. (r) => q`row_to_json(${r})`);
   * `page` gives the whole array, given the page's rows as an array in order (NULL for an empty page), for
   * a shape that shares work between rows (e.g. (rows) => q`app.bets_json(${rows})` builds each match once).
   */
  json: { row: (row: Fragment) => Fragment; page?: never } | { page: (rows: Fragment) => Fragment; row?: never };
  /** 'desc' (newest first, the default) or 'asc' (in the order added). */
  order?: 'asc' | 'desc';
  /** A count of all rows of the list, answered with the first page only (X-Total-Count). */
  total?: Fragment;
  /** The rupees at stake in the list (a match's open bets: what abandoning refunds), with the first page (X-Total-Stake). */
  stake?: Fragment;
}

/** The statement of one page: columns `body` (JSON array), `next` (id or null), `total` and `stake` (first page, or null). */
export function pageStatement(q: Sql, page: Page, source: PageSource) {
  const alias = q(source.alias);
  const ascending = source.order === 'asc';
  const direction = ascending ? q`asc` : q`desc`;
  const beyond =
    page.after === null ? q`` : ascending ? q`and ${alias}.id > ${page.after}` : q`and ${alias}.id < ${page.after}`;
  const last = ascending ? q`max(p.id)` : q`min(p.id)`;
  const body = source.json.row
    ? q`json_agg(${source.json.row(q`p.r`)} order by p.n) filter (where p.n <= ${page.limit})`
    : source.json.page(q`array_agg(p.r order by p.n) filter (where p.n <= ${page.limit})`);
  return q`
    select coalesce(${body}, '[]')::text as body,
           case when count(*) > ${page.limit} then ${last} filter (where p.n <= ${page.limit}) end as next,
           ${page.after === null && source.total ? q`(${source.total})` : q`null::bigint`} as total,
           ${page.after === null && source.stake ? q`(${source.stake})` : q`null::bigint`} as stake
    from (
      select row_number() over (order by s.id ${direction}) as n, s.r, s.id
      from (
        select ${alias} as r, ${alias}.id
        from ${typeof source.from === 'function' ? source.from(beyond) : source.from}
        where ${source.where ?? q`true`} ${beyond}
        order by ${alias}.id ${direction}
        limit ${page.limit + 1}
      ) s
    ) p`;
}

/** A route that answers a page: its 200. */
export type PageRoute = RouteConfig & { responses: { 200: object } };

/**
 * Answers a page statement's row as route R's 200 answer: the body as the database wrote it, `Link: <…>; rel="next"` (this
 * request's path and query with the next cursor) when more rows follow, `X-Total-Count` / `X-Total-Stake`
 * when counted.
 */
export function sendPage<R extends PageRoute>(c: Ctx, rows: Rows): Answer<R> {
  const { body, next, total, stake } = rows[0] as {
    body: string;
    next: number | null;
    total: number | null;
    stake: number | null;
  };
  if (next !== null) {
    const url = new URL(c.req.url);
    url.searchParams.set('cursor', encodeCursor(next));
    c.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
  }
  if (total !== null) c.header('X-Total-Count', String(total));
  if (stake !== null) c.header('X-Total-Stake', String(stake));
  return sendJson<R>(c, body, 200 as AnswerStatus<R>);
}
