/**
 * The five tabs of the transactions screen and the initial filter from the URL. With both
 * query parameters the key is '{type}_{status}'; with one, that one alone. Every filter is exactly what its
 * query asks for (and what the screen asks the API for): `type=deposit&status=pending` (the dashboard's
 * Pending Deposits link) shows pending deposits only. That filter has no tab of its own: the screen shows it
 * under Pending, marked as narrower.
 */
import type { QueryParameters } from '@/lib/api-client.ts';

type FilterQuery = Pick<QueryParameters<'adminListTransactions'>, 'type' | 'status'>;

export const TRANSACTION_TABS = [
  { value: 'all', label: 'All', query: {} },
  { value: 'deposits', label: 'Deposits', query: { type: 'deposit' } },
  { value: 'withdrawals', label: 'Withdrawals', query: { type: 'withdrawal' } },
  { value: 'pending', label: 'Pending', query: { status: 'pending' } },
  { value: 'pending_withdrawals', label: 'Pending Withdrawals', query: { type: 'withdrawal', status: 'pending' } },
] as const satisfies readonly { value: string; label: string; query: FilterQuery }[];

/** The filters only a link asks for, each with the tab it shows under. */
const LINK_FILTERS = [
  {
    value: 'pending_deposits',
    label: 'Pending Deposits',
    query: { type: 'deposit', status: 'pending' },
    tab: 'pending',
  },
] as const satisfies readonly { value: string; label: string; query: FilterQuery; tab: string }[];

const FILTERS = [...TRANSACTION_TABS, ...LINK_FILTERS];

export type TransactionTab = (typeof TRANSACTION_TABS)[number]['value'];
export type TransactionFilter = (typeof FILTERS)[number]['value'];

function entry(filter: TransactionFilter) {
  return FILTERS.find((candidate) => candidate.value === filter) ?? TRANSACTION_TABS[0];
}

export function filterKey(type: string | null, status: string | null): string {
  if (type && status) return `${type}_${status}`;
  return type || status || 'all';
}

/** The filter the query parameters ask for; 'all' for anything unknown. */
export function filterFromQuery(params: URLSearchParams): TransactionFilter {
  const key = filterKey(params.get('type'), params.get('status'));
  const match = FILTERS.find((candidate) => {
    const { type, status } = candidate.query as FilterQuery;
    return filterKey(type ?? null, status ?? null) === key;
  });
  return match?.value ?? 'all';
}

/** The tab a filter shows under: its own, or for a link's filter the wider tab that holds it. */
export function tabOf(filter: TransactionFilter): TransactionTab {
  const found = entry(filter);
  return 'tab' in found ? found.tab : found.value;
}

export function filterLabel(filter: TransactionFilter): string {
  return entry(filter).label;
}

export function queryForFilter(filter: TransactionFilter): URLSearchParams {
  return new URLSearchParams(entry(filter).query as Record<string, string>);
}

/** The API query (type, status) of a filter. */
export function filterQuery(filter: TransactionFilter): FilterQuery {
  return entry(filter).query as FilterQuery;
}
