import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RiskSettings } from '../../../domain/risk.ts';
import { mockApi } from '../../../test/render.tsx';
import { renderAdmin } from '../testing/render-admin.tsx';
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
    const calls = mockApi({ 'GET /api/admin/settings': { body: defaults } });
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
});
