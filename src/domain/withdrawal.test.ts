import { describe, expect, it } from 'vitest';
import { aTransaction, aUser } from '../test/fixtures.ts';
import { hasQualifyingDeposit, withdrawalRefusal } from './withdrawal.ts';

const qualifying = aTransaction(1, { type: 'deposit', status: 'completed', amount: 1000 });

describe('withdrawal checks', () => {
  it('lets a signed-in player with the balance and a completed deposit of ₹1,000 withdraw', () => {
    expect(withdrawalRefusal(aUser({ wallet_balance: 2000 }), 2000, [qualifying])).toBeNull();
  });

  it('refuses a visitor who is not signed in', () => {
    expect(withdrawalRefusal(null, 100, [qualifying])).toBe('signed-out');
  });

  it('refuses more than the available balance, which leaves out pending withdrawals', () => {
    const user = aUser({ wallet_balance: 2000, pending_withdrawals: 500 });
    expect(withdrawalRefusal(user, 1501, [qualifying])).toBe('insufficient-balance');
    expect(withdrawalRefusal(user, 1500, [qualifying])).toBeNull();
  });

  it('tells of the balance before the missing deposit', () => {
    expect(withdrawalRefusal(aUser({ wallet_balance: 100 }), 500, [])).toBe('insufficient-balance');
  });

  it('needs one completed deposit of ₹1,000 or more', () => {
    const user = aUser({ wallet_balance: 5000 });
    expect(withdrawalRefusal(user, 100, [])).toBe('no-qualifying-deposit');
    expect(hasQualifyingDeposit([aTransaction(2, { type: 'deposit', status: 'completed', amount: 999 })])).toBe(false);
    expect(hasQualifyingDeposit([aTransaction(3, { type: 'deposit', status: 'pending', amount: 5000 })])).toBe(false);
    expect(hasQualifyingDeposit([aTransaction(4, { type: 'withdrawal', status: 'completed', amount: 5000 })])).toBe(
      false,
    );
    expect(hasQualifyingDeposit([aTransaction(5, { type: 'deposit', status: 'completed', amount: 1000 })])).toBe(true);
  });
});
