/**
 * The house's books: GET /api/admin/books and /api/admin/books.csv, a range of IST days of
 * per-match lines, per-day figures and totals. The database builds both answers from what settlement and the
 * posting function keep as they go (app.books, app.books_csv), one call in one round trip.
 *
 * Mounted at /api/admin: `books.csv` is a sibling of `books`, not a path below it (a router mounted at
 * /books can only answer /books and /books/…).
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { booksEntity, booksRangeSchema } from '@/domain/books.ts';
import { answer, query } from '../../context.ts';
import { errors, json, router } from '../../openapi.ts';

const tags = ['admin: books'];

const booksRoute = createRoute({
  method: 'get',
  path: '/books',
  tags,
  summary: "The house's books between two dates (IST, both included, at most 366 days)",
  description:
    'Per match: each line of the books booked in the range (a settlement, or a correction as a line of its ' +
    'own), newest first, with house_result = stakes − paid − refunded. Per day (every day of the range): ' +
    'deposits credited, withdrawals paid, admin credits net of debits, referral bonuses and the house result. ' +
    'Totals of both. Rupees as integers.',
  request: { query: booksRangeSchema },
  responses: { 200: json(booksEntity, 'The books'), ...errors(400, 401, 403) },
});

const booksCsvRoute = createRoute({
  method: 'get',
  path: '/books.csv',
  tags,
  summary: "The house's books between two dates as CSV",
  description:
    "One table: the 'match' lines, then the 'day' lines, then the 'total' line, each filling its columns; " +
    'texts starting with = + - @ are prefixed with an apostrophe so spreadsheets do not run them.',
  request: { query: booksRangeSchema },
  responses: {
    200: { description: 'CSV (RFC 4180, CRLF), a header line first', content: { 'text/csv': { schema: z.string() } } },
    ...errors(400, 401, 403),
  },
});

export function adminBooksRoutes() {
  const app = router();

  app.openapi(booksRoute, (c) => {
    const { from, to } = c.req.valid('query');
    return answer<typeof booksRoute>(c, 'service', (q) => q`select app.books(${from}, ${to})::text as body`);
  });
  app.openapi(booksCsvRoute, async (c) => {
    const { from, to } = c.req.valid('query');
    const [rows] = await query(c, 'service', (q) => [q`select l from app.books_csv(${from}, ${to}) l`]);
    return c.body(rows.map((row) => `${row.l}\r\n`).join(''), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="books-${from}-to-${to}.csv"`,
    });
  });

  return app;
}
