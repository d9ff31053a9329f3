import { describe, expect, it } from 'vitest';
import { filterFromQuery, filterKey, filterQuery, queryForFilter, tabOf } from './transaction-filters.ts';

const filter = (query: string) => filterFromQuery(new URLSearchParams(query));

describe('transactions filter from the URL', () => {
  it("joins type and status as '{type}_{status}'", () => {
    expect(filterKey('withdrawal', 'pending')).toBe('withdrawal_pending');
    expect(filterKey('deposit', null)).toBe('deposit');
    expect(filterKey(null, 'pending')).toBe('pending');
    expect(filterKey(null, null)).toBe('all');
  });

  it('maps the query parameters to the five tabs', () => {
    expect(filter('')).toBe('all');
    expect(filter('type=deposit')).toBe('deposits');
    expect(filter('type=withdrawal')).toBe('withdrawals');
    expect(filter('status=pending')).toBe('pending');
    expect(filter('type=withdrawal&status=pending')).toBe('pending_withdrawals');
    expect(filter('type=nonsense')).toBe('all');
  });

  it("maps the dashboard's Pending Deposits link to pending deposits only, shown under the Pending tab", () => {
    expect(filter('type=deposit&status=pending')).toBe('pending_deposits');
    expect(tabOf('pending_deposits')).toBe('pending');
    expect(tabOf('pending_withdrawals')).toBe('pending_withdrawals');
  });

  it('writes each filter back as query parameters that map to the same filter', () => {
    for (const value of [
      'all',
      'deposits',
      'withdrawals',
      'pending',
      'pending_withdrawals',
      'pending_deposits',
    ] as const) {
      expect(filterFromQuery(queryForFilter(value))).toBe(value);
    }
    expect(queryForFilter('pending_withdrawals').toString()).toBe('type=withdrawal&status=pending');
    expect(queryForFilter('pending_deposits').toString()).toBe('type=deposit&status=pending');
  });

  it('asks the API for exactly the filter', () => {
    expect(filterQuery('pending_withdrawals')).toEqual({ type: 'withdrawal', status: 'pending' });
    expect(filterQuery('pending_deposits')).toEqual({ type: 'deposit', status: 'pending' });
    expect(filterQuery('pending')).toEqual({ status: 'pending' });
    expect(filterQuery('all')).toEqual({});
  });
});
