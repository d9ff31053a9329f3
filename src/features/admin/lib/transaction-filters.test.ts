import { describe, expect, it } from 'vitest';
import { aTransaction } from '../../../test/fixtures.ts';
import { filterFromQuery, filterKey, inFilter, matchesTransactionSearch, queryForFilter, tabOf } from './transaction-filters.ts';

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
    for (const value of ['all', 'deposits', 'withdrawals', 'pending', 'pending_withdrawals', 'pending_deposits'] as const) {
      expect(filterFromQuery(queryForFilter(value))).toBe(value);
    }
    expect(queryForFilter('pending_withdrawals').toString()).toBe('type=withdrawal&status=pending');
    expect(queryForFilter('pending_deposits').toString()).toBe('type=deposit&status=pending');
  });

  it('filters rows exactly as asked', () => {
    const pendingWithdrawal = aTransaction(1, { type: 'withdrawal', status: 'pending', amount: -500 });
    const pendingDeposit = aTransaction(2, { type: 'deposit', status: 'pending' });
    const bet = aTransaction(3, { type: 'bet_placed', amount: -1000 });
    const completedDeposit = aTransaction(4, { type: 'deposit', status: 'completed' });
    expect(inFilter(pendingWithdrawal, 'pending_withdrawals')).toBe(true);
    expect(inFilter(pendingDeposit, 'pending_withdrawals')).toBe(false);
    expect(inFilter(pendingDeposit, 'pending')).toBe(true);
    expect(inFilter(pendingDeposit, 'pending_deposits')).toBe(true);
    expect(inFilter(pendingWithdrawal, 'pending_deposits')).toBe(false);
    expect(inFilter(completedDeposit, 'pending_deposits')).toBe(false);
    expect(inFilter(bet, 'deposits')).toBe(false);
    expect(inFilter(bet, 'all')).toBe(true);
  });

  it('searches by transaction id, user id or reference id', () => {
    const row = aTransaction(123, { user_id: 45, reference_id: 'REF-1700000000000-ABCD' });
    expect(matchesTransactionSearch(row, '123')).toBe(true);
    expect(matchesTransactionSearch(row, '45')).toBe(true);
    expect(matchesTransactionSearch(row, 'abcd')).toBe(true);
    expect(matchesTransactionSearch(row, '999')).toBe(false);
  });
});
