/**
 * The house's books for the back office: GET /api/admin/books for a range of IST days (the Books screen, and
 * today's house result on the dashboard) and the same as a CSV download (GET /api/admin/books.csv).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Books, BooksRange } from '@/domain/books.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/** Today in India (the books' days are IST days), YYYY-MM-DD. */
export function istToday(now = new Date()): string {
  return now.toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });
}

export function booksQueryOptions(range: BooksRange) {
  return queryOptions({
    // under the dashboard's key for today's figure, so what refreshes the dashboard refreshes it too
    queryKey: [...adminKeys.dashboard, 'books', range.from, range.to] as const,
    queryFn: (): Promise<Books> =>
      answer(client.GET('/api/admin/books', { params: { query: { from: range.from, to: range.to } } })),
  });
}

export function useBooks(range: BooksRange) {
  return useQuery(booksQueryOptions(range));
}

/**
 * Fetches the books as CSV and hands them to the browser as a file download (fetched rather than linked, so
 * a refusal is an error the page shows instead of a saved error file).
 */
export async function downloadBooks(range: BooksRange): Promise<void> {
  const blob = await answer(
    client.GET('/api/admin/books.csv', { params: { query: { from: range.from, to: range.to } }, parseAs: 'blob' }),
  );
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `books-${range.from}-to-${range.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
