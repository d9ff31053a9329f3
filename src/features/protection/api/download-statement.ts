import { api } from '@/lib/api-client.ts';

export interface StatementRange {
  /** YYYY-MM-DD, both included (India Standard Time) */
  from: string;
  to: string;
}

/** GET /api/wallet/statement.csv for the range. */
export function statementUrl({ from, to }: StatementRange): string {
  return `/api/wallet/statement.csv?${new URLSearchParams({ from, to })}`;
}

/**
 * Fetches the statement and hands it to the browser as a file download. Fetched rather than linked, so a
 * refusal (an expired session, a bad range) is an error the page can show instead of a saved error file.
 */
export async function downloadStatement(range: StatementRange): Promise<void> {
  const blob = await api.getBlob(statementUrl(range));
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `statement-${range.from}-to-${range.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
