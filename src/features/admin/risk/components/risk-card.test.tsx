import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { RiskCard } from './risk-card.tsx';

describe('risk card', () => {
  it("shows per side the bets, stakes and payout, and the house's net on each result", async () => {
    mockApi({
      'GET /api/admin/matches/11/risk': {
        body: {
          team1: { bets: 3, staked: 12000, payout_if_wins: 36000 },
          team2: { bets: 1, staked: 5000, payout_if_wins: 15000 },
          net_if_team1_wins: -19000,
          net_if_team2_wins: 2000,
          betting: 'open',
          team1_odds: 3,
          team2_odds: 3,
          overround_percent: 66.7,
        },
      },
    });
    renderAdmin(<RiskCard match={aMatch()} />);
    const table = await screen.findByRole('table', { name: 'Risk' });
    const [, mi, csk] = within(table).getAllByRole('row');
    expect(
      within(mi)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Mumbai Indians', '3', '₹12,000', '₹36,000', '-₹19,000']);
    expect(
      within(csk)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Chennai Super Kings', '1', '₹5,000', '₹15,000', '₹2,000']);
    expect(screen.getByTestId('risk-prices')).toHaveTextContent('Prices now: MI 3.00 · CSK 3.00');
    expect(screen.getByText('Over-round: 66.7 %')).toBeInTheDocument();
    expect(screen.getByText('Players can back both teams for a certain profit')).toBeInTheDocument();
  });

  it('shows a margin without the warning once the over-round is 100 or more', async () => {
    mockApi({
      'GET /api/admin/matches/11/risk': {
        body: {
          team1: { bets: 0, staked: 0, payout_if_wins: 0 },
          team2: { bets: 0, staked: 0, payout_if_wins: 0 },
          net_if_team1_wins: 0,
          net_if_team2_wins: 0,
          betting: 'open',
          team1_odds: 1.85,
          team2_odds: 1.95,
          overround_percent: 105.3,
        },
      },
    });
    renderAdmin(<RiskCard match={aMatch()} />);
    expect(await screen.findByText('Over-round: 105.3 %')).toBeInTheDocument();
    expect(screen.getByTestId('risk-prices')).toHaveTextContent('Prices now: MI 1.85 · CSK 1.95');
    expect(screen.queryByText('Players can back both teams for a certain profit')).not.toBeInTheDocument();
  });

  it('says when the risk view cannot be loaded', async () => {
    mockApi({ 'GET /api/admin/matches/11/risk': { status: 500, body: { message: 'boom' } } });
    renderAdmin(<RiskCard match={aMatch()} />);
    expect(await screen.findByText('Error loading risk. Please try again later.')).toBeInTheDocument();
  });
});
