import { describe, expect, it } from 'vitest';
import { aTransaction } from '../../../test/fixtures.ts';
import { filterKey, inTab, matchesTransactionSearch, queryForTab, tabFromQuery } from './transaction-filters.ts';

const tab = (query: string) => tabFromQuery(new URLSearchParams(query));

describe('transactions filter from the URL', () => {
  it("joins type and status as '{type}_{status}'", () => {
    expect(filterKey('withdrawal', 'pending')).toBe('withdrawal_pending');
    expect(filterKey('deposit', null)).toBe('deposit');
    expect(filterKey(null, 'pending')).toBe('pending');
    expect(filterKey(null, null)).toBe('all');
  });

  it('maps the query parameters to the five tabs', () => {
    expect(tab('')).toBe('all');
    expect(tab('type=deposit')).toBe('deposits');
    expect(tab('type=withdrawal')).toBe('withdrawals');
    expect(tab('status=pending')).toBe('pending');
    expect(tab('type=withdrawal&status=pending')).toBe('pending_withdrawals');
    expect(tab('type=deposit&status=pending')).toBe('pending');
    expect(tab('type=nonsense')).toBe('all');
  });

  it('writes each tab back as query parameters that map to the same tab', () => {
    for (const value of ['all', 'deposits', 'withdrawals', 'pending', 'pending_withdrawals'] as const) {
      expect(tabFromQuery(queryForTab(value))).toBe(value);
    }
    expect(queryForTab('pending_withdrawals').toString()).toBe('type=withdrawal&status=pending');
  });

  it('filters rows by tab', () => {
    const pendingWithdrawal = aTransaction(1, { type: 'withdrawal', status: 'pending', amount: -500 });
    const pendingDeposit = aTransaction(2, { type: 'deposit', status: 'pending' });
    const bet = aTransaction(3, { type: 'bet_placed', amount: -1000 });
    expect(inTab(pendingWithdrawal, 'pending_withdrawals')).toBe(true);
    expect(inTab(pendingDeposit, 'pending_withdrawals')).toBe(false);
    expect(inTab(pendingDeposit, 'pending')).toBe(true);
    expect(inTab(bet, 'deposits')).toBe(false);
    expect(inTab(bet, 'all')).toBe(true);
  });

  it('searches by transaction id, user id or reference id', () => {
    const row = aTransaction(123, { user_id: 45, reference_id: 'REF-1700000000000-ABCD' });
    expect(matchesTransactionSearch(row, '123')).toBe(true);
    expect(matchesTransactionSearch(row, '45')).toBe(true);
    expect(matchesTransactionSearch(row, 'abcd')).toBe(true);
    expect(matchesTransactionSearch(row, '999')).toBe(false);
  });
});
