import { answer, client } from '@/lib/api-client.ts';

export interface StatementRange {
  /** YYYY-MM-DD, both included (India Standard Time) */
  from: string;
  to: string;
}

/**
 * GET /api/wallet/statement.csv for the range, handed to the browser as a file download. Fetched rather than
 * linked, so a refusal (an expired session, a bad range) is an error the page can show instead of a saved error
 * file.
 */
export async function downloadStatement(range: StatementRange): Promise<void> {
  const blob = await answer(
    client.GET('/api/wallet/statement.csv', { params: { query: { from: range.from, to: range.to } }, parseAs: 'blob' }),
  );
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `statement-${range.from}-to-${range.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
