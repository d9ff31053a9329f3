import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LinkedAccount } from '@/domain/admin-entities.ts';
import { formatDateTime } from '@/domain/money.ts';
import { someLimits } from '@/test/fixtures.ts';
import { mockApi, writes } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { LinkedAccountsCard } from './linked-accounts-card.tsx';

const ends = '2027-05-22T09:00:00Z';
const byBank: LinkedAccount = {
  id: 8,
  username: 'second_self',
  name: 'Second Self',
  status: 'active',
  links: [
    { reason: 'bank_account', detail: 'HDFC0001234 ending 7890' },
    { reason: 'phone', detail: '+91 98765 43210' },
  ],
  exclusion: { kind: 'self_exclusion', ends_at: ends, binds_this_user: true },
};
const byDevice: LinkedAccount = {
  id: 9,
  username: 'family_pc',
  name: 'Family PC',
  status: 'active',
  links: [{ reason: 'device', detail: 'last signed in with it on 22 Nov 2026, 2:30 pm IST' }],
  exclusion: { kind: 'timeout', ends_at: ends, binds_this_user: false },
};

describe('linked accounts card', () => {
  it('lists the linked accounts with why, and their running exclusions', async () => {
    mockApi({ 'GET /api/admin/users/7/linked': { body: [byBank, byDevice] } });
    renderAdmin(<LinkedAccountsCard userId={7} />);
    const bank = await screen.findByRole('listitem', { name: 'second_self' });
    expect(bank).toHaveTextContent('Same bank account: HDFC0001234 ending 7890');
    expect(bank).toHaveTextContent('Same phone number: +91 98765 43210');
    expect(bank).toHaveTextContent(`self-exclusion until ${formatDateTime(ends)}`);
    expect(bank).toHaveTextContent('Binds this account too.');
    expect(within(bank).queryByRole('button')).toBeNull();
    expect(within(bank).getByRole('link', { name: 'second_self' })).toHaveAttribute('href', '/admin/users/8');
    const device = screen.getByRole('listitem', { name: 'family_pc' });
    expect(device).toHaveTextContent('Same device: last signed in with it on 22 Nov 2026, 2:30 pm IST');
  });

  it("applies a device-linked account's running exclusion to this user, and says so", async () => {
    const calls = mockApi({
      'GET /api/admin/users/7/linked': { body: [byDevice] },
      'POST /api/admin/users/7/linked/9/exclusion': { status: 201, body: someLimits({ timeout_until: ends }) },
    });
    const { user } = renderAdmin(<LinkedAccountsCard userId={7} />);
    const device = await screen.findByRole('listitem', { name: 'family_pc' });
    await user.click(within(device).getByRole('button', { name: 'Apply their time-out here' }));
    expect(await screen.findByText('Exclusion applied')).toBeInTheDocument();
    expect(screen.getByText('This account is now bound by the time-out.')).toBeInTheDocument();
    expect(writes(calls).map((call) => call.url)).toEqual(['/api/admin/users/7/linked/9/exclusion']);
  });

  it('shows the refusal, and an empty list as such', async () => {
    mockApi({
      'GET /api/admin/users/7/linked': { body: [byDevice] },
      'POST /api/admin/users/7/linked/9/exclusion': {
        status: 409,
        body: { message: 'This account is already bound by that exclusion' },
      },
      'GET /api/admin/users/8/linked': { body: [] },
    });
    const { user } = renderAdmin(
      <>
        <LinkedAccountsCard userId={7} />
        <LinkedAccountsCard userId={8} />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: 'Apply their time-out here' }));
    expect(await screen.findByText('Failed to apply exclusion')).toBeInTheDocument();
    expect(screen.getByText('409: This account is already bound by that exclusion')).toBeInTheDocument();
    expect(screen.getByText('No linked accounts.')).toBeInTheDocument();
  });
});
