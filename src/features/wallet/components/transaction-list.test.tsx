import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aTransaction } from '../../../test/fixtures.ts';
import { mockApi, renderWithProviders } from '../../../test/render.tsx';
import { gatewayRedirect } from '../api/create-deposit.ts';
import { NO_TRANSACTIONS, TRANSACTIONS_ERROR, TransactionList } from './transaction-list.tsx';

/** 25 transactions: every third a withdrawal, the rest deposits. */
const ledger = Array.from({ length: 25 }, (_, index) =>
  index % 3 === 0
    ? aTransaction(index + 1, { type: 'withdrawal', amount: -500, status: 'pending' })
    : aTransaction(index + 1, { type: 'deposit', amount: 1000 }),
);

const rows = () => within(screen.getByRole('list', { name: 'Transaction list' })).getAllByRole('listitem');

describe('transaction list', () => {
  it('shows 3 items in the overview, in a 350 px scroll area', () => {
    renderWithProviders(<TransactionList transactions={ledger} />);
    expect(rows()).toHaveLength(3);
    expect(screen.getByRole('region', { name: 'Transactions' })).toHaveStyle({ maxHeight: '350px' });
  });

  it('shows 10 items in the detailed view, in a 600 px scroll area', () => {
    renderWithProviders(<TransactionList transactions={ledger} detailed />);
    expect(rows()).toHaveLength(10);
    expect(screen.getByRole('region', { name: 'Transactions' })).toHaveStyle({ maxHeight: '600px' });
  });

  it('adds 10 with Load More and hides it when everything is shown', async () => {
    const { user } = renderWithProviders(<TransactionList transactions={ledger} />);
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(rows()).toHaveLength(13);
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(rows()).toHaveLength(23);
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(rows()).toHaveLength(25);
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
  });

  it('filters deposits and withdrawals', async () => {
    const { user } = renderWithProviders(<TransactionList transactions={ledger} detailed />);
    await user.click(screen.getByRole('button', { name: 'Withdrawals' }));
    expect(screen.getByRole('button', { name: 'Withdrawals' })).toHaveAttribute('aria-pressed', 'true');
    expect(rows()).toHaveLength(9);
    expect(rows().every((row) => within(row).queryByText('Withdrawal'))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deposits' }));
    expect(rows()).toHaveLength(10);
    expect(rows().every((row) => within(row).queryByText('Deposit'))).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(rows()).toHaveLength(16);
    await user.click(screen.getByRole('button', { name: 'All' }));
    expect(rows()).toHaveLength(10);
  });

  it('shows signed amounts in rupees', () => {
    renderWithProviders(<TransactionList transactions={[aTransaction(1, { amount: 150000 }), aTransaction(2, { amount: -500, type: 'withdrawal' })]} />);
    expect(screen.getByText('+₹1,50,000')).toBeInTheDocument();
    expect(screen.getByText('-₹500')).toBeInTheDocument();
  });

  it('shows the empty and error texts', () => {
    const { unmount } = renderWithProviders(<TransactionList transactions={[]} />);
    expect(screen.getByText(NO_TRANSACTIONS)).toBeInTheDocument();
    expect(NO_TRANSACTIONS).toBe('No transactions found.');
    unmount();
    renderWithProviders(<TransactionList transactions={undefined} isError />);
    expect(screen.getByText(TRANSACTIONS_ERROR)).toBeInTheDocument();
    expect(TRANSACTIONS_ERROR).toBe('Error loading transactions. Please try again later.');
  });

  it('hides Load More when every item already fits', () => {
    renderWithProviders(<TransactionList transactions={ledger.slice(0, 10)} detailed />);
    expect(rows()).toHaveLength(10);
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
  });

  it('filters by transaction type, not by the sign of the amount', async () => {
    const mixed = [
      aTransaction(1, { type: 'deposit', amount: 1000 }),
      aTransaction(2, { type: 'withdrawal', amount: -500 }),
      aTransaction(3, { type: 'bet_placed', amount: -1000 }),
      aTransaction(4, { type: 'bet_won', amount: 3000 }),
      aTransaction(5, { type: 'admin_adjustment', amount: -200 }),
    ];
    const { user } = renderWithProviders(<TransactionList transactions={mixed} detailed />);
    await user.click(screen.getByRole('button', { name: 'Withdrawals' }));
    expect(rows()).toHaveLength(1);
    expect(within(rows()[0]).getByText('Withdrawal')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deposits' }));
    expect(rows()).toHaveLength(1);
    expect(within(rows()[0]).getByText('Deposit')).toBeInTheDocument();
  });

  it("offers 'Pay now' on a pending deposit only, which resumes it at the gateway with the same reference and amount", async () => {
    const pending = aTransaction(31, { type: 'deposit', status: 'pending', amount: 2500, reference_id: 'REF-1763700000000-ABCD' });
    const calls = mockApi({
      'POST /api/wallet/deposit': { status: 201, body: { ...pending, redirect_url: '/api/payments/sandbox?reference=REF-1763700000000-ABCD' } },
    });
    const go = vi.spyOn(gatewayRedirect, 'go').mockImplementation(() => {});
    const { user } = renderWithProviders(
      <TransactionList
        transactions={[
          pending,
          aTransaction(32, { type: 'deposit', status: 'completed' }),
          aTransaction(33, { type: 'deposit', status: 'failed' }),
          aTransaction(34, { type: 'withdrawal', status: 'pending', amount: -500 }),
        ]}
        detailed
      />,
    );
    expect(screen.getAllByRole('button', { name: /^Pay now/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Pay now REF-1763700000000-ABCD' }));
    expect(await screen.findByText('Deposit request created')).toBeInTheDocument();
    expect(calls[0]).toEqual({
      method: 'POST', url: '/api/wallet/deposit',
      body: { amount: 2500, paymentMethod: 'upi', reference: 'REF-1763700000000-ABCD', status: 'pending' },
    });
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/sandbox?reference=REF-1763700000000-ABCD'), { timeout: 2500 });
  });
});
