import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { ChangeStatusDialog } from './change-status-dialog.tsx';

describe('change status dialog', () => {
  it('keeps Update disabled while the status is unchanged, then sends the new one', async () => {
    const calls = mockApi({ 'PATCH /api/admin/users/7/status': { body: aUser({ status: 'banned' }) } });
    const { user } = renderAdmin(<ChangeStatusDialog user={aUser()} />);
    await user.click(screen.getByRole('button', { name: 'Change Status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change User Status' });
    const update = within(dialog).getByRole('button', { name: 'Update' });
    expect(update).toBeDisabled();
    await user.selectOptions(within(dialog).getByLabelText('Status'), 'banned');
    expect(update).toBeEnabled();
    await user.selectOptions(within(dialog).getByLabelText('Status'), 'active');
    expect(update).toBeDisabled();
    await user.selectOptions(within(dialog).getByLabelText('Status'), 'banned');
    await user.click(update);
    expect(await screen.findByText('Status updated')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'PATCH', url: '/api/admin/users/7/status', body: { status: 'banned' } }]);
  });
});
