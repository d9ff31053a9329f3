import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@/domain/money.ts';
import { aUser, someLimits } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { UserDetailRoute } from './user-detail.tsx';

describe('admin user detail: player protection', () => {
  it("shows the player's limits and self-exclusion, with nothing to change them", async () => {
    const calls = mockApi({
      'GET /api/admin/users/7': { body: aUser() },
      'GET /api/admin/users/7/linked': { body: [] },
      'GET /api/account/limits?userId=7': {
        body: someLimits({
          deposit_limits: { daily: 5000, weekly: null, monthly: null },
          deposit_remaining: { daily: 5000, weekly: null, monthly: null },
          self_excluded_until: '2027-05-22T09:00:00Z',
        }),
      },
    });
    renderAdmin(
      <Routes>
        <Route path="/admin/users/:id" element={<UserDetailRoute />} />
      </Routes>,
      { route: '/admin/users/7' },
    );
    const card = await screen.findByRole('region', { name: 'Player Protection' });
    expect(card).toHaveTextContent('Set by the player. Admins cannot change or lift these.');
    expect(await within(card).findByLabelText('Deposit limits by period')).toHaveTextContent(
      'Daily (24 hours)₹5,000 · ₹5,000 left',
    );
    expect(within(card).getByLabelText('Time-out and self-exclusion')).toHaveTextContent(
      `Self-exclusionUntil ${formatDateTime('2027-05-22T09:00:00Z')}`,
    );
    expect(within(card).queryAllByRole('button')).toEqual([]);
    expect(calls.some((call) => call.url === '/api/account/limits?userId=7')).toBe(true);
  });
});
