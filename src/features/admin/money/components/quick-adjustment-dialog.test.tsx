import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aTransaction, aUser } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { QUICK_ADJUSTMENT_NOTE } from './adjustment-form.tsx';
import { QuickAdjustmentDialog } from './quick-adjustment-dialog.tsx';

describe('quick adjustment dialog', () => {
  it('keeps Apply disabled while the amount is empty and sends a signed amount with a default note', async () => {
    const calls = mockApi({ 'POST /api/admin/users/7/wallet': { status: 201, body: aTransaction(9) } });
    const { user } = renderAdmin(<QuickAdjustmentDialog user={aUser()} />);
    await user.click(screen.getByRole('button', { name: 'Quick Adjustment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Quick Adjustment' });
    const apply = within(dialog).getByRole('button', { name: 'Apply Adjustment' });
    expect(apply).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Amount (₹)'), '-300');
    expect(apply).toBeEnabled();
    await user.click(apply);
    expect(await screen.findByText('Wallet updated')).toBeInTheDocument();
    expect(calls).toEqual([
      { method: 'POST', url: '/api/admin/users/7/wallet', body: { amount: -300, notes: QUICK_ADJUSTMENT_NOTE } },
    ]);
  });

  it('shows Failed to update wallet with the server message', async () => {
    mockApi({ 'POST /api/admin/users/7/wallet': { status: 409, body: { message: 'Insufficient balance' } } });
    const { user } = renderAdmin(<QuickAdjustmentDialog user={aUser()} />);
    await user.click(screen.getByRole('button', { name: 'Quick Adjustment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Quick Adjustment' });
    await user.type(within(dialog).getByLabelText('Amount (₹)'), '-99999');
    await user.click(within(dialog).getByRole('button', { name: 'Apply Adjustment' }));
    expect(await screen.findByText('Failed to update wallet')).toBeInTheDocument();
    expect(screen.getByText('409: Insufficient balance')).toBeInTheDocument();
  });
});
