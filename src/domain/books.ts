/**
 * The house's books (GET /api/admin/books and books.csv, the Books screen), shared by the SPA and the API: the
 * range a request may ask for (IST days, at most BOOKS_MAX_DAYS, which app.books checks again with the same
 * message) and the answer's shape. The figures come from the database (supabase/schemas/32_ledger.sql).
 */
import { z } from 'zod';
import { timestamp } from './entities.ts';
import { statementRangeSchema } from './protection-schemas.ts';

/** The longest range of days the books answer at once. */
export const BOOKS_MAX_DAYS = 366;

export const booksMessages = {
  rangeTooLong: `The books cover at most ${BOOKS_MAX_DAYS} days`,
} as const;

/** Days from `from` to `to`, both included (YYYY-MM-DD calendar days). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** ?from=YYYY-MM-DD&to=YYYY-MM-DD: IST calendar days, both included, from ≤ to, at most BOOKS_MAX_DAYS. */
export const booksRangeSchema = statementRangeSchema.refine(
  (range) => range.from > range.to || daysInRange(range.from, range.to) <= BOOKS_MAX_DAYS,
  { message: booksMessages.rangeTooLong, path: ['to'] },
);
export type BooksRange = z.infer<typeof booksRangeSchema>;

const rupees = z.number().int();

/** A line of the books for one match: its settlement, or a correction of it (a line of its own). */
export const booksMatchEntity = z.object({
  match_id: z.number().int(),
  team1: z.string(),
  team2: z.string(),
  /** when the line's outcome was fixed (the declaration, or the correction's approval) */
  settled_at: timestamp,
  bets: z.number().int(),
  stakes: rupees,
  paid: rupees,
  refunded: rupees,
  /** stakes − paid − refunded */
  house_result: rupees,
});
export type BooksMatch = z.infer<typeof booksMatchEntity>;

/** One IST day of the books. */
export const booksDayEntity = z.object({
  day: z.iso.date(),
  /** deposits credited */
  deposits: rupees,
  /** withdrawals paid out */
  withdrawals: rupees,
  /** admin credits, net of admin debits */
  admin_credits: rupees,
  referral_bonuses: rupees,
  house_result: rupees,
});
export type BooksDay = z.infer<typeof booksDayEntity>;

/** GET /api/admin/books: the lines of the matches settled in the range (newest first), every day, the totals. */
export const booksEntity = z.object({
  matches: z.array(booksMatchEntity),
  days: z.array(booksDayEntity),
  totals: z.object({
    bets: z.number().int(),
    stakes: rupees,
    paid: rupees,
    refunded: rupees,
    deposits: rupees,
    withdrawals: rupees,
    admin_credits: rupees,
    referral_bonuses: rupees,
    house_result: rupees,
  }),
});
export type Books = z.infer<typeof booksEntity>;
