import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Transaction } from '@/domain/entities.ts';
import { aBankAccount, aTransaction, aUser } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders } from '@/test/render.tsx';
import { NO_BANK_ACCOUNT, WithdrawForm } from './withdraw-form.tsx';

const qualifying = [aTransaction(1, { amount: 1000, type: 'deposit', status: 'completed' })];

function setup({
  balance = 5000,
  pending = 0,
  transactions = qualifying as Transaction[],
  accounts = [aBankAccount()],
  loadError = undefined as string | undefined,
} = {}) {
  const calls = mockApi({
    'POST /api/wallet/withdraw': {
      status: 201,
      body: aTransaction(5, { amount: -600, type: 'withdrawal', status: 'pending' }),
    },
  });
  const onAddBankAccount = vi.fn();
  const view = renderWithProviders(
    <WithdrawForm
      user={aUser({ wallet_balance: balance, pending_withdrawals: pending })}
      bankAccounts={accounts}
      transactions={transactions}
      onAddBankAccount={onAddBankAccount}
      loadError={loadError}
    />,
  );
  return { ...view, calls, onAddBankAccount };
}

describe('withdraw form', () => {
  it('opens a dialog asking for a bank account when a user without one opens the form', async () => {
    const { user, onAddBankAccount } = setup({ accounts: [] });
    const dialog = await screen.findByRole('alertdialog', { name: 'Withdraw Funds' });
    expect(within(dialog).getByText(NO_BANK_ACCOUNT)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add Bank Account' }));
    expect(onAddBankAccount).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('asks for a bank account again when a user without one submits', async () => {
    const { user, calls } = setup({ accounts: [] });
    await screen.findByRole('alertdialog', { name: 'Withdraw Funds' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await user.type(screen.getByLabelText('Amount (₹)'), '600');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByRole('alertdialog', { name: 'Withdraw Funds' })).toHaveTextContent(NO_BANK_ACCOUNT);
    expect(calls).toHaveLength(0);
  });

  it('does not ask for a bank account when the user has one', () => {
    setup();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.queryByText(NO_BANK_ACCOUNT)).not.toBeInTheDocument();
  });

  it('takes digits only in the amount, so a decimal cannot be entered', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Amount (₹)'), '1000.5');
    expect(screen.getByLabelText('Amount (₹)')).toHaveValue('10005');
  });

  it('shows the load error and does not submit while the checks cannot be made', async () => {
    const { user, calls } = setup({
      accounts: [],
      transactions: [],
      loadError: 'Error loading transactions. Please try again later.',
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Error loading transactions. Please try again later.');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request Withdrawal' })).toBeDisabled();
    await user.type(screen.getByLabelText('Amount (₹)'), '600');
    await user.type(screen.getByLabelText('Amount (₹)'), '{Enter}');
    expect(screen.queryByText('Minimum deposit required')).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows processing time 24-48 hours and fee ₹0', () => {
    setup();
    expect(screen.getByText('24-48 hours')).toBeInTheDocument();
    expect(screen.getByText('₹0')).toBeInTheDocument();
  });

  it('validates the amount range and the bank account', async () => {
    const { user, calls } = setup({ accounts: [aBankAccount(), aBankAccount({ id: 4, bank_name: 'SBI' })] });
    await user.type(screen.getByLabelText('Amount (₹)'), '400');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByText('Minimum withdrawal amount is ₹500')).toBeInTheDocument();
    expect(screen.getByText('Please select a bank account')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Amount (₹)'));
    await user.type(screen.getByLabelText('Amount (₹)'), '50001');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByText('Maximum withdrawal amount is ₹50,000')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('refuses more than the balance, showing the available balance', async () => {
    const { user, calls } = setup({ balance: 800 });
    await user.type(screen.getByLabelText('Amount (₹)'), '900');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByText('Insufficient balance')).toBeInTheDocument();
    expect(screen.getByText('Your available balance is ₹800.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows and checks the available balance: the wallet balance minus pending withdrawals', async () => {
    const { user, calls } = setup({ balance: 5000, pending: 4200 });
    expect(screen.getByText(/^Available balance:/)).toHaveTextContent(
      'Available balance: ₹800 (₹4,200 held for pending withdrawals)',
    );
    await user.type(screen.getByLabelText('Amount (₹)'), '900');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByText('Insufficient balance')).toBeInTheDocument();
    expect(
      screen.getByText('Your available balance is ₹800 (₹4,200 held for pending withdrawals).'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('requires a completed deposit of ₹1,000 or more', async () => {
    const { user, calls } = setup({
      transactions: [
        aTransaction(1, { amount: 999, type: 'deposit', status: 'completed' }),
        aTransaction(2, { amount: 5000, type: 'deposit', status: 'pending' }),
        aTransaction(3, { amount: 2000, type: 'admin_adjustment', status: 'completed' }),
      ],
    });
    await user.type(screen.getByLabelText('Amount (₹)'), '600');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByText('Minimum deposit required')).toBeInTheDocument();
    expect(
      screen.getByText('You need to have made at least one deposit of ₹1,000 or more to withdraw funds'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends amount and bank account and confirms the 24-48 hours', async () => {
    const { user, calls } = setup();
    await user.type(screen.getByLabelText('Amount (₹)'), '600');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByText('Withdrawal request submitted')).toBeInTheDocument();
    expect(screen.getByText('₹600 will be credited to your bank account within 24-48 hours.')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/wallet/withdraw',
      body: { amount: 600, bankAccountId: 3 },
    });
  });

  it('accepts a withdrawal of exactly the balance', async () => {
    const { user, calls } = setup({ balance: 600 });
    await user.type(screen.getByLabelText('Amount (₹)'), '600');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByText('Withdrawal request submitted')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ url: '/api/wallet/withdraw', body: { amount: 600, bankAccountId: 3 } });
  });

  it("refuses a signed-out user with 'Authentication error'", async () => {
    const calls = mockApi({});
    const { user } = renderWithProviders(
      <WithdrawForm user={null} bankAccounts={[aBankAccount()]} transactions={qualifying} onAddBankAccount={vi.fn()} />,
    );
    await user.type(screen.getByLabelText('Amount (₹)'), '600');
    await user.click(screen.getByRole('button', { name: 'Request Withdrawal' }));
    expect(await screen.findByText('Authentication error')).toBeInTheDocument();
    expect(screen.getByText('Please log in to withdraw funds')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
