import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RiskSettings, SettingsChange } from '@/domain/risk.ts';
import { mockApi, writes } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { SettingsRoute } from './settings.tsx';

const defaults: RiskSettings = {
  max_stake_per_bet: 100000,
  max_stake_per_player_match: 200000,
  max_liability_per_match: 1000000,
  betting_close_over: 15,
  betting_pre_match_only: false,
  live_feed_stale_seconds: 180,
  referral_bonuses_per_month: 20,
  adjustment_review_amount: 50000,
  admin_credit_per_day: 500000,
  default_odds: 3,
};

describe('settings screen', () => {
  it('shows the current settings and saves the changed form', async () => {
    const calls = mockApi({
      'GET /api/admin/settings': { body: defaults },
      'GET /api/admin/settings/changes': { body: [] },
      'PUT /api/admin/settings': ({ body }) => ({ body }),
    });
    const { user } = renderAdmin(<SettingsRoute />);
    const perBet = await screen.findByRole('textbox', { name: 'Maximum stake per bet (₹)' });
    expect(perBet).toHaveValue('100000');
    expect(screen.getByRole('textbox', { name: 'Close betting at over (2nd innings)' })).toHaveValue('15.0');

    await user.clear(perBet);
    await user.type(perBet, '50000');
    await user.clear(screen.getByRole('textbox', { name: 'Close betting at over (2nd innings)' }));
    await user.click(screen.getByRole('checkbox', { name: /Pre-match betting only/ }));
    await user.clear(screen.getByRole('textbox', { name: 'Pause bets after a quiet live score (seconds)' }));
    const review = screen.getByRole('textbox', { name: 'Second admin approves credits from (₹)' });
    await user.clear(review);
    await user.type(review, '25000');
    const odds = screen.getByRole('textbox', { name: 'Default odds of a new match' });
    expect(odds).toHaveValue('3.00');
    await user.clear(odds);
    await user.type(odds, '1.9');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(calls.at(-1)).toEqual({
      method: 'PUT',
      url: '/api/admin/settings',
      body: {
        ...defaults,
        max_stake_per_bet: 50000,
        betting_close_over: null,
        betting_pre_match_only: true,
        live_feed_stale_seconds: null,
        adjustment_review_amount: 25000,
        default_odds: 1.9,
      },
    });
  });

  it('refuses values outside the limits with their messages and sends nothing', async () => {
    const calls = mockApi({
      'GET /api/admin/settings': { body: defaults },
      'GET /api/admin/settings/changes': { body: [] },
    });
    const { user } = renderAdmin(<SettingsRoute />);
    const perBet = await screen.findByRole('textbox', { name: 'Maximum stake per bet (₹)' });
    await user.clear(perBet);
    await user.type(perBet, '999');
    const over = screen.getByRole('textbox', { name: 'Close betting at over (2nd innings)' });
    await user.clear(over);
    await user.type(over, '15.6');
    const stale = screen.getByRole('textbox', { name: 'Pause bets after a quiet live score (seconds)' });
    await user.clear(stale);
    await user.type(stale, '10');
    const odds = screen.getByRole('textbox', { name: 'Default odds of a new match' });
    await user.clear(odds);
    await user.type(odds, '1.855');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(
      await screen.findByText('Maximum stake per bet must be between ₹1,000 and ₹1,000,000,000'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Close over must be empty or between 0 and 20 (overs.balls, balls 0-5)'),
    ).toBeInTheDocument();
    expect(screen.getByText('Stale live score must be empty or between 30 and 3,600 seconds')).toBeInTheDocument();
    expect(
      screen.getByText('Default odds must be between 1.01 and 100.00, with at most two decimals'),
    ).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toEqual([]));
  });

  it('says when the settings cannot be loaded', async () => {
    mockApi({ 'GET /api/admin/settings': { status: 500, body: { message: 'boom' } } });
    renderAdmin(<SettingsRoute />);
    expect(await screen.findByText('Error loading settings. Please try again later.')).toBeInTheDocument();
  });

  it('says a raised control on admin money waits for a second administrator, and shows the settings in force', async () => {
    const change: SettingsChange = {
      id: 7,
      changes: { admin_credit_per_day: 900000 },
      previous: { admin_credit_per_day: 500000 },
      status: 'pending',
      proposed_by: 1,
      proposed_by_username: 'me',
      created_at: '2026-11-27T10:00:00Z',
      decided_by: null,
      decided_at: null,
    };
    let pending: SettingsChange[] = [];
    const calls = mockApi({
      'GET /api/user': { body: { id: 1, role: 'admin' } },
      'GET /api/admin/settings': { body: defaults },
      'GET /api/admin/settings/changes': () => ({ body: pending }),
      'PUT /api/admin/settings': () => {
        pending = [change];
        return { status: 202, body: { message: 'A second administrator must approve this change', change } };
      },
    });
    const { user } = renderAdmin(<SettingsRoute />);
    const cap = await screen.findByRole('textbox', { name: 'Credits per admin per day (₹)' });
    expect(await screen.findByText('No changes are waiting.')).toBeInTheDocument();
    await user.clear(cap);
    await user.type(cap, '900000');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await screen.findByText('Change sent for approval')).toBeInTheDocument();
    expect(screen.getByText('A second administrator must approve this change')).toBeInTheDocument();
    await waitFor(() => expect(cap).toHaveValue('500000'));
    const item = await screen.findByRole('listitem', { name: 'Change #7' });
    expect(item).toHaveTextContent('Credits per admin per day (₹): ₹5,00,000 → ₹9,00,000');
    expect(item).toHaveTextContent('Proposed by you');
    expect(within(item).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(item).getByRole('button', { name: 'Withdraw' })).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
  });

  it('lets another admin approve or reject a change, and says what the server answered', async () => {
    const change: SettingsChange = {
      id: 8,
      changes: { adjustment_review_amount: 100000 },
      previous: { adjustment_review_amount: 50000 },
      status: 'pending',
      proposed_by: 2,
      proposed_by_username: 'colleague',
      created_at: '2026-11-27T10:00:00Z',
      decided_by: null,
      decided_at: null,
    };
    const calls = mockApi({
      'GET /api/user': { body: { id: 1, role: 'admin' } },
      'GET /api/admin/settings': { body: defaults },
      'GET /api/admin/settings/changes': { body: [change] },
      'POST /api/admin/settings/changes/8/approve': {
        status: 409,
        body: { message: 'This change has already been decided' },
      },
      'POST /api/admin/settings/changes/8/reject': { body: { ...change, status: 'rejected', decided_by: 1 } },
    });
    const { user } = renderAdmin(<SettingsRoute />);
    const item = await screen.findByRole('listitem', { name: 'Change #8' });
    expect(item).toHaveTextContent('Second admin approves credits from (₹): ₹50,000 → ₹1,00,000');
    expect(item).toHaveTextContent('Proposed by colleague');
    await user.click(within(item).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Failed to approve change')).toBeInTheDocument();
    expect(screen.getByText('409: This change has already been decided')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Change rejected')).toBeInTheDocument();
    expect(writes(calls).map((call) => call.url)).toEqual([
      '/api/admin/settings/changes/8/approve',
      '/api/admin/settings/changes/8/reject',
    ]);
  });
});
