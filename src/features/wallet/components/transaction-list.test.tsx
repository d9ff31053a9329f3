import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Transaction } from '@/domain/entities.ts';
import { decodeCursor, encodeCursor } from '@/domain/paging.ts';
import { aTransaction } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders, type RecordedCall } from '@/test/render.tsx';
import { gatewayRedirect } from '../api/create-deposit.ts';
import { NO_TRANSACTIONS, TRANSACTIONS_ERROR, TransactionList } from './transaction-list.tsx';

/** 25 transactions, newest first: every third a withdrawal, the rest deposits. */
const ledger = Array.from({ length: 25 }, (_, index) =>
  index % 3 === 0
    ? aTransaction(25 - index, { type: 'withdrawal', amount: -500, status: 'pending' })
    : aTransaction(25 - index, { type: 'deposit', amount: 1000 }),
);

/** GET /api/wallet/transactions as the API pages it: ?type=, ?limit=, ?cursor=, Link: rel="next". */
function serve(transactions: Transaction[]) {
  return mockApi({
    'GET /api/wallet/transactions': ({ url }: RecordedCall) => {
      const params = new URL(url, 'http://spa').searchParams;
      const limit = Number(params.get('limit'));
      const after = params.get('cursor') ? decodeCursor(params.get('cursor')!)! : Infinity;
      const rows = transactions.filter((t) => t.id < after && (!params.get('type') || t.type === params.get('type')));
      const page = rows.slice(0, limit);
      if (rows.length <= limit) return { body: page };
      params.set('cursor', encodeCursor(page[page.length - 1].id));
      return { body: page, headers: { Link: `</api/wallet/transactions?${params}>; rel="next"` } };
    },
  });
}

const rows = () => within(screen.getByRole('list', { name: 'Transaction list' })).getAllByRole('listitem');
const limits = (calls: RecordedCall[]) =>
  calls.map((call) => new URL(call.url, 'http://spa').searchParams.get('limit'));

describe('transaction list', () => {
  it('shows 3 items in the overview, in a 350 px scroll area', async () => {
    const calls = serve(ledger);
    renderWithProviders(<TransactionList />);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(limits(calls)).toEqual(['3']);
    expect(screen.getByRole('region', { name: 'Transactions' })).toHaveStyle({ maxHeight: '350px' });
  });

  it('shows 10 items in the detailed view, in a 600 px scroll area', async () => {
    const calls = serve(ledger);
    renderWithProviders(<TransactionList detailed />);
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(limits(calls)).toEqual(['10']);
    expect(screen.getByRole('region', { name: 'Transactions' })).toHaveStyle({ maxHeight: '600px' });
  });

  it('fetches the next 10 from the server with Load More and hides it on the last page', async () => {
    const calls = serve(ledger);
    const { user } = renderWithProviders(<TransactionList />);
    await user.click(await screen.findByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(rows()).toHaveLength(13));
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(rows()).toHaveLength(23));
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(rows()).toHaveLength(25));
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
    expect(limits(calls)).toEqual(['3', '10', '10', '10']);
    expect(new URL(calls[1].url, 'http://spa').searchParams.get('cursor')).toBe(encodeCursor(23));
  });

  it('filters deposits and withdrawals on the server', async () => {
    const calls = serve(ledger);
    const { user } = renderWithProviders(<TransactionList detailed />);
    await screen.findByRole('list', { name: 'Transaction list' });
    await user.click(screen.getByRole('button', { name: 'Withdrawals' }));
    expect(screen.getByRole('button', { name: 'Withdrawals' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(rows()).toHaveLength(9));
    expect(calls.at(-1)!.url).toBe('/api/wallet/transactions?type=withdrawal&limit=10');
    expect(rows().every((row) => within(row).queryByText('Withdrawal'))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deposits' }));
    await waitFor(() => expect(rows().every((row) => within(row).queryByText('Deposit'))).toBe(true));
    expect(rows()).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    await waitFor(() => expect(rows()).toHaveLength(16));
    await user.click(screen.getByRole('button', { name: 'All' }));
    await waitFor(() => expect(rows()).toHaveLength(10));
  });

  it('shows signed amounts in rupees', async () => {
    serve([aTransaction(2, { amount: 150000 }), aTransaction(1, { amount: -500, type: 'withdrawal' })]);
    renderWithProviders(<TransactionList />);
    expect(await screen.findByText('+₹1,50,000')).toBeInTheDocument();
    expect(screen.getByText('-₹500')).toBeInTheDocument();
  });

  it('shows the empty and error texts', async () => {
    serve([]);
    const { unmount } = renderWithProviders(<TransactionList />);
    expect(await screen.findByText(NO_TRANSACTIONS)).toBeInTheDocument();
    expect(NO_TRANSACTIONS).toBe('No transactions found.');
    unmount();
    mockApi({ 'GET /api/wallet/transactions': { status: 500, body: { message: 'boom' } } });
    renderWithProviders(<TransactionList />);
    expect(await screen.findByText(TRANSACTIONS_ERROR)).toBeInTheDocument();
    expect(TRANSACTIONS_ERROR).toBe('Error loading transactions. Please try again later.');
  });

  it('hides Load More when every item already fits', async () => {
    serve(ledger.slice(0, 10));
    renderWithProviders(<TransactionList detailed />);
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
  });

  it('filters by transaction type, not by the sign of the amount', async () => {
    serve([
      aTransaction(5, { type: 'deposit', amount: 1000 }),
      aTransaction(4, { type: 'withdrawal', amount: -500 }),
      aTransaction(3, { type: 'bet_placed', amount: -1000 }),
      aTransaction(2, { type: 'bet_won', amount: 3000 }),
      aTransaction(1, { type: 'admin_adjustment', amount: -200 }),
    ]);
    const { user } = renderWithProviders(<TransactionList detailed />);
    await waitFor(() => expect(rows()).toHaveLength(5));
    await user.click(screen.getByRole('button', { name: 'Withdrawals' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]).getByText('Withdrawal')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deposits' }));
    await waitFor(() => expect(within(rows()[0]).getByText('Deposit')).toBeInTheDocument());
    expect(rows()).toHaveLength(1);
  });

  it("offers 'Pay now' on a pending deposit only, which resumes it at the gateway with the same reference and amount", async () => {
    const pending = aTransaction(31, {
      type: 'deposit',
      status: 'pending',
      amount: 2500,
      reference_id: 'REF-1763700000000-ABCD',
    });
    const calls = mockApi({
      'GET /api/wallet/transactions': {
        body: [
          pending,
          aTransaction(32, { type: 'deposit', status: 'completed' }),
          aTransaction(33, { type: 'deposit', status: 'failed' }),
          aTransaction(34, { type: 'withdrawal', status: 'pending', amount: -500 }),
        ],
      },
      'POST /api/wallet/deposit': {
        status: 201,
        body: { ...pending, redirect_url: '/api/payments/sandbox?reference=REF-1763700000000-ABCD' },
      },
    });
    const go = vi.spyOn(gatewayRedirect, 'go').mockImplementation(() => {});
    const { user } = renderWithProviders(<TransactionList detailed />);
    expect(await screen.findAllByRole('button', { name: /^Pay now/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Pay now REF-1763700000000-ABCD' }));
    expect(await screen.findByText('Deposit request created')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/wallet/deposit',
      body: { amount: 2500, paymentMethod: 'upi', reference: 'REF-1763700000000-ABCD', status: 'pending' },
    });
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/sandbox?reference=REF-1763700000000-ABCD'), {
      timeout: 2500,
    });
  });
});
