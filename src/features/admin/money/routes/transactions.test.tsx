import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aTransaction } from '@/test/fixtures.ts';
import { mockApi, type RecordedCall } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { TransactionsRoute } from './transactions.tsx';

const rows = [
  aTransaction(1, { type: 'deposit', status: 'completed', amount: 2000 }),
  aTransaction(2, { type: 'deposit', status: 'pending', amount: 1500, user_id: 8 }),
  aTransaction(3, { type: 'withdrawal', status: 'pending', amount: -700, reference_id: null }),
  aTransaction(4, { type: 'withdrawal', status: 'failed', amount: -900 }),
];

/** GET /api/admin/transactions as the API filters it: ?type=, ?status=, ?q= (an id or user id, else a whole reference). */
function serve({ url }: RecordedCall) {
  const params = new URL(url, 'http://spa').searchParams;
  const q = params.get('q')?.replace(/^#/, '');
  const found = rows.filter(
    (row) =>
      (!params.get('type') || row.type === params.get('type')) &&
      (!params.get('status') || row.status === params.get('status')) &&
      (!q ||
        (/^\d+$/.test(q) ? row.id === Number(q) || row.user_id === Number(q) : row.reference_id === q.toUpperCase())),
  );
  return { body: found };
}

function setup(route: string, extra: Parameters<typeof mockApi>[0] = {}) {
  const calls = mockApi({
    'GET /api/admin/transactions': serve,
    'GET /api/admin/transactions/counts': {
      body: { pending_deposits: 1, pending_withdrawals: 1, pending_adjustments: 0 },
    },
    ...extra,
  });
  const view = renderAdmin(<TransactionsRoute />, { route });
  return { ...view, calls };
}

const rowIds = () =>
  screen
    .queryAllByTestId(/^transaction-/)
    .map((row) => Number(row.getAttribute('data-testid')!.replace('transaction-', '')));

describe('admin transactions screen', () => {
  it('opens on Pending Withdrawals for ?type=withdrawal&status=pending', async () => {
    const { calls } = setup('/admin/transactions?type=withdrawal&status=pending');
    await screen.findByRole('table', { name: 'Transactions' });
    expect(screen.getByRole('tab', { name: 'Pending Withdrawals' })).toHaveAttribute('aria-selected', 'true');
    expect(rowIds()).toEqual([3]);
    expect(calls[0].url).toBe('/api/admin/transactions?type=withdrawal&status=pending&limit=50');
  });

  it("shows pending deposits only for the dashboard's ?type=deposit&status=pending, under Pending, and widens on request", async () => {
    const { user } = setup('/admin/transactions?type=deposit&status=pending');
    await screen.findByRole('table', { name: 'Transactions' });
    expect(rowIds()).toEqual([2]);
    expect(screen.getByRole('tab', { name: 'Pending' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Showing pending deposits only.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all pending' }));
    await waitFor(() => expect(rowIds()).toEqual([2, 3]));
    expect(screen.queryByText('Showing pending deposits only.')).not.toBeInTheDocument();
  });

  it('opens on Deposits for ?type=deposit', async () => {
    setup('/admin/transactions?type=deposit');
    await screen.findByRole('table', { name: 'Transactions' });
    expect(screen.getByRole('tab', { name: 'Deposits' })).toHaveAttribute('aria-selected', 'true');
    expect(rowIds()).toEqual([1, 2]);
  });

  it('switches tabs and searches on the server, once typing pauses', async () => {
    const { user, calls } = setup('/admin/transactions');
    await screen.findByRole('table', { name: 'Transactions' });
    expect(rowIds()).toEqual([1, 2, 3, 4]);
    await user.click(screen.getByRole('tab', { name: 'Pending' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Pending' })).toHaveAttribute('aria-selected', 'true'));
    await waitFor(() => expect(rowIds()).toEqual([2, 3]));
    await user.type(screen.getByPlaceholderText('Search transactions...'), '#8');
    await waitFor(() => expect(rowIds()).toEqual([2]));
    const searches = calls.filter((call) => call.url.includes('q='));
    expect(searches.map((call) => call.url)).toEqual(['/api/admin/transactions?q=%238&status=pending&limit=50']);
    await user.clear(screen.getByPlaceholderText('Search transactions...'));
    await user.type(screen.getByPlaceholderText('Search transactions...'), '424242');
    expect(await screen.findByText('No transactions found')).toBeInTheDocument();
  });

  it('shows the counts of the pending tabs', async () => {
    setup('/admin/transactions');
    await screen.findByRole('table', { name: 'Transactions' });
    await waitFor(() =>
      expect(screen.getAllByTestId('tab-count').map((badge) => badge.textContent)).toEqual(['2', '1']),
    );
    expect(screen.getByRole('tab', { name: 'Pending Withdrawals' })).toBeInTheDocument();
  });

  it('shows Approve and Reject only on pending rows', async () => {
    setup('/admin/transactions');
    await screen.findByRole('table', { name: 'Transactions' });
    expect(within(screen.getByTestId('transaction-1')).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(screen.getByTestId('transaction-2')).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(screen.getByTestId('transaction-3')).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
  });

  it('approves a withdrawal after a confirmation that warns about the bank transfer', async () => {
    const { user, calls } = setup('/admin/transactions', {
      'PATCH /api/admin/transactions/3/approve': {
        body: aTransaction(3, { type: 'withdrawal', status: 'completed', amount: -700 }),
      },
    });
    await screen.findByRole('table', { name: 'Transactions' });
    await user.click(within(screen.getByTestId('transaction-3')).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve Transaction' });
    expect(
      within(dialog).getByText("Approving will process this payment and adjust the user's wallet balance."),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/processed the actual bank transfer/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Transaction approved')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PATCH')).toEqual([
      { method: 'PATCH', url: '/api/admin/transactions/3/approve', body: undefined },
    ]);
  });

  it('rejects a deposit after a confirmation that says no funds move, and reports failures', async () => {
    const { user } = setup('/admin/transactions', {
      'PATCH /api/admin/transactions/2/reject': { status: 409, body: { message: 'Transaction is not pending' } },
    });
    await screen.findByRole('table', { name: 'Transactions' });
    await user.click(within(screen.getByTestId('transaction-2')).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reject Transaction' });
    expect(
      within(dialog).getByText('Rejecting will mark this transaction as failed. No funds will be moved.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Failed to reject transaction')).toBeInTheDocument();
    expect(screen.getByText('409: Transaction is not pending')).toBeInTheDocument();
  });

  it('says when an approval is the first of two, and that a deposit no gateway confirmed counts against the cap', async () => {
    const { user } = setup('/admin/transactions', {
      'PATCH /api/admin/transactions/2/approve': {
        status: 202,
        body: {
          message: 'A second administrator must approve deposits of ₹50,000 or more',
          transaction: aTransaction(2, { type: 'deposit', status: 'pending', amount: 1500, user_id: 8 }),
        },
      },
    });
    await screen.findByRole('table', { name: 'Transactions' });
    await user.click(within(screen.getByTestId('transaction-2')).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve Transaction' });
    expect(within(dialog).getByText(/counts towards your daily credit limit/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approval recorded')).toBeInTheDocument();
    expect(screen.getByText('A second administrator must approve deposits of ₹50,000 or more')).toBeInTheDocument();
    expect(screen.queryByText('Transaction approved')).toBeNull();
  });

  it('shows the refusal when the same admin approves twice', async () => {
    const { user } = setup('/admin/transactions', {
      'PATCH /api/admin/transactions/3/approve': {
        status: 403,
        body: { message: 'A second administrator must approve this withdrawal' },
      },
    });
    await screen.findByRole('table', { name: 'Transactions' });
    await user.click(within(screen.getByTestId('transaction-3')).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve Transaction' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Failed to approve transaction')).toBeInTheDocument();
    expect(screen.getByText('403: A second administrator must approve this withdrawal')).toBeInTheDocument();
  });
});
