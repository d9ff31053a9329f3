/**
 * Spec §2.16: the five tabs of the transactions screen and the initial filter from the URL. With both
 * query parameters the key is '{type}_{status}'; with one, that one alone.
 */
import type { Transaction } from '../../../domain/entities.ts';

export const TRANSACTION_TABS = [
  { value: 'all', label: 'All', query: {} },
  { value: 'deposits', label: 'Deposits', query: { type: 'deposit' } },
  { value: 'withdrawals', label: 'Withdrawals', query: { type: 'withdrawal' } },
  { value: 'pending', label: 'Pending', query: { status: 'pending' } },
  { value: 'pending_withdrawals', label: 'Pending Withdrawals', query: { type: 'withdrawal', status: 'pending' } },
] as const satisfies readonly { value: string; label: string; query: { type?: string; status?: string } }[];

export type TransactionTab = (typeof TRANSACTION_TABS)[number]['value'];

/** '{type}_{status}' (or the one given) → tab. A pending deposit has no tab of its own: it opens Pending. */
const KEY_TO_TAB: Record<string, TransactionTab> = {
  deposit: 'deposits',
  withdrawal: 'withdrawals',
  pending: 'pending',
  withdrawal_pending: 'pending_withdrawals',
  deposit_pending: 'pending',
};

export function filterKey(type: string | null, status: string | null): string {
  if (type && status) return `${type}_${status}`;
  return type || status || 'all';
}

export function tabFromQuery(params: URLSearchParams): TransactionTab {
  return KEY_TO_TAB[filterKey(params.get('type'), params.get('status'))] ?? 'all';
}

export function queryForTab(tab: TransactionTab): URLSearchParams {
  const { query } = TRANSACTION_TABS.find((entry) => entry.value === tab) ?? TRANSACTION_TABS[0];
  return new URLSearchParams(query as Record<string, string>);
}

export function inTab(transaction: Transaction, tab: TransactionTab): boolean {
  const { query } = TRANSACTION_TABS.find((entry) => entry.value === tab) ?? TRANSACTION_TABS[0];
  const { type, status } = query as { type?: string; status?: string };
  return (!type || transaction.type === type) && (!status || transaction.status === status);
}

/** Matches the transaction id, the user id or the reference id (spec §2.16). */
export function matchesTransactionSearch(transaction: Transaction, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  const bare = needle.replace(/^#/, '');
  return (
    String(transaction.id).includes(bare) ||
    String(transaction.user_id).includes(bare) ||
    (transaction.reference_id ?? '').toLowerCase().includes(needle)
  );
}
