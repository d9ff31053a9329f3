import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aTransaction, aUser } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { AdjustmentForm } from './adjustment-form.tsx';

function setup(
  answer: { status?: number; body?: unknown } = { status: 201, body: aTransaction(9, { type: 'admin_adjustment' }) },
) {
  const calls = mockApi({ 'POST /api/admin/users/7/wallet': answer });
  const view = renderAdmin(<AdjustmentForm user={aUser()} />);
  const submit = () => view.user.click(screen.getByRole('button', { name: 'Submit Adjustment' }));
  return { ...view, calls, submit };
}

describe('wallet adjustment form', () => {
  it('shows the amount help text and starts on Credit', () => {
    setup();
    expect(screen.getByText('Amount between ₹1 and ₹100,000')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Credit' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Debit' })).not.toBeChecked();
  });

  it('requires an amount above 0 and a reason', async () => {
    const { submit, calls } = setup();
    await submit();
    expect(await screen.findByText('Amount must be greater than 0')).toBeInTheDocument();
    expect(screen.getByText('Please provide a reason for this adjustment')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('refuses more than 100,000 and notes over 200 characters', async () => {
    const { user, submit, calls } = setup();
    await user.type(screen.getByLabelText('Amount (₹)'), '100001');
    await user.click(screen.getByLabelText('Reason for adjustment'));
    await user.paste('x'.repeat(201));
    await submit();
    expect(await screen.findByText('Maximum amount is 100,000')).toBeInTheDocument();
    expect(screen.getByText('Notes must be under 200 characters')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('says a large credit waits for a second administrator, naming the threshold from the settings', async () => {
    mockApi({
      'POST /api/admin/users/7/wallet': {
        status: 201,
        body: aTransaction(9, { type: 'admin_adjustment', amount: 60000, status: 'pending' }),
      },
      'GET /api/admin/settings': { body: { adjustment_review_amount: 50000 } },
    });
    const view = renderAdmin(<AdjustmentForm user={aUser()} />);
    await view.user.type(screen.getByLabelText('Amount (₹)'), '60000');
    await view.user.type(screen.getByLabelText('Reason for adjustment'), 'Tournament prize');
    await view.user.click(screen.getByRole('button', { name: 'Submit Adjustment' }));
    expect(await screen.findByText('Adjustment sent for approval')).toBeInTheDocument();
    expect(screen.getByText('A second administrator must approve adjustments of ₹50,000 or more')).toBeInTheDocument();
    expect(screen.queryByText('Wallet updated successfully')).not.toBeInTheDocument();
  });

  it('sends a credit as a positive amount with the notes and toasts success', async () => {
    const { user, submit, calls } = setup();
    await user.type(screen.getByLabelText('Amount (₹)'), '2500');
    await user.type(screen.getByLabelText('Reason for adjustment'), 'Goodwill bonus');
    await submit();
    expect(await screen.findByText('Wallet updated successfully')).toBeInTheDocument();
    expect(calls).toEqual([
      { method: 'POST', url: '/api/admin/users/7/wallet', body: { amount: 2500, notes: 'Goodwill bonus' } },
    ]);
    expect(screen.getByLabelText('Amount (₹)')).toHaveValue('');
  });

  it('sends a debit as a negative amount', async () => {
    const { user, submit, calls } = setup();
    await user.click(screen.getByText('Debit'));
    await user.type(screen.getByLabelText('Amount (₹)'), '500');
    await user.type(screen.getByLabelText('Reason for adjustment'), 'Chargeback');
    await submit();
    expect(await screen.findByText('Wallet updated successfully')).toBeInTheDocument();
    expect(calls[0].body).toEqual({ amount: -500, notes: 'Chargeback' });
  });

  it('shows Error updating wallet with the server message', async () => {
    const { user, submit } = setup({ status: 409, body: { message: 'Insufficient balance' } });
    await user.click(screen.getByText('Debit'));
    await user.type(screen.getByLabelText('Amount (₹)'), '99999');
    await user.type(screen.getByLabelText('Reason for adjustment'), 'Too much');
    await submit();
    expect(await screen.findByText('Error updating wallet')).toBeInTheDocument();
    expect(screen.getByText('409: Insufficient balance')).toBeInTheDocument();
  });

  it('accepts a reason of exactly 200 characters', async () => {
    const { user, submit, calls } = setup();
    await user.type(screen.getByLabelText('Amount (₹)'), '100');
    await user.click(screen.getByLabelText('Reason for adjustment'));
    await user.paste('x'.repeat(200));
    await submit();
    expect(await screen.findByText('Wallet updated successfully')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it("reads 'Processing...' and is disabled while the adjustment is sent", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { user, submit } = setup();
    const answer = globalThis.fetch; // mockApi's, held back until release()
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await gate;
      return answer(...args);
    });
    await user.type(screen.getByLabelText('Amount (₹)'), '100');
    await user.type(screen.getByLabelText('Reason for adjustment'), 'Bonus');
    await submit();
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    release();
    expect(await screen.findByRole('button', { name: 'Submit Adjustment' })).toBeEnabled();
  });
});
