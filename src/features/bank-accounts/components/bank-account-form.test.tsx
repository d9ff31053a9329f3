import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aBankAccount } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders } from '@/test/render.tsx';
import { BankAccountForm } from './bank-account-form.tsx';

describe('bank account form', () => {
  it('shows the messages of every field', async () => {
    const calls = mockApi({});
    const { user } = renderWithProviders(<BankAccountForm userId={7} />);
    await user.type(screen.getByLabelText('Account Holder Name'), 'Al');
    await user.type(screen.getByLabelText('Bank Name'), 'SB');
    await user.type(screen.getByLabelText('Account Number'), '12345678');
    await user.type(screen.getByLabelText('Confirm Account Number'), '123456789');
    await user.type(screen.getByLabelText('IFSC Code'), 'hdfc');
    await user.click(screen.getByRole('button', { name: 'Add Bank Account' }));
    expect(await screen.findByText('Account holder name must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Bank name must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Account number must be valid')).toBeInTheDocument();
    expect(screen.getByText("Account numbers don't match")).toBeInTheDocument();
    expect(screen.getByText('IFSC code must be 11 characters')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('upper-cases the IFSC code as typed', async () => {
    mockApi({});
    const { user } = renderWithProviders(<BankAccountForm userId={7} />);
    await user.type(screen.getByLabelText('IFSC Code'), 'hdfc0001234');
    expect(screen.getByLabelText('IFSC Code')).toHaveValue('HDFC0001234');
  });

  it('sends the account without the confirmation field', async () => {
    const calls = mockApi({ 'POST /api/bank-accounts': { status: 201, body: aBankAccount() } });
    const { user } = renderWithProviders(<BankAccountForm userId={7} />);
    await user.type(screen.getByLabelText('Account Holder Name'), 'Asha Rao');
    await user.type(screen.getByLabelText('Bank Name'), 'HDFC Bank');
    await user.type(screen.getByLabelText('Account Number'), '123456789012');
    await user.type(screen.getByLabelText('Confirm Account Number'), '123456789012');
    await user.type(screen.getByLabelText('IFSC Code'), 'hdfc0001234');
    await user.click(screen.getByRole('button', { name: 'Add Bank Account' }));
    expect(await screen.findByText('Bank account added')).toBeInTheDocument();
    expect(calls[0].body).toEqual({
      account_holder: 'Asha Rao',
      account_number: '123456789012',
      ifsc_code: 'HDFC0001234',
      bank_name: 'HDFC Bank',
      user_id: 7,
    });
  });
});
