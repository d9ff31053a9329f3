import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders } from '@/test/render.tsx';
import { MyBetsRoute } from './my-bets.tsx';

describe('my bets page', () => {
  it("shows the inline error and the destructive 'Error loading bets' toast when the bets fail to load", async () => {
    mockApi({ 'GET /api/bets': { status: 500, body: { message: 'boom' } } });
    renderWithProviders(<MyBetsRoute />);
    expect(await screen.findByText('Error loading bets. Please try again later.')).toBeInTheDocument();
    const toastTitle = await screen.findByText('Error loading bets');
    expect(toastTitle.closest('[data-variant]')).toHaveAttribute('data-variant', 'destructive');
  });

  it("labels a placed bet 'In Progress'", async () => {
    const match = aMatch();
    mockApi({
      'GET /api/bets': {
        body: [
          {
            id: 1,
            user_id: 7,
            match_id: 11,
            team_id: 1,
            amount: 1000,
            odds: 3,
            status: 'placed',
            potential_win: 3000,
            created_at: '2026-11-21T14:00:00Z',
            settled_at: null,
            match,
            team: match.team1,
          },
        ],
      },
    });
    renderWithProviders(<MyBetsRoute />);
    expect(await screen.findByText('In Progress')).toBeInTheDocument();
  });

  it('shows each bet at its own odds', async () => {
    const match = aMatch({ team1_odds: 1.5 });
    const bet = (id: number, odds: number, potential_win: number) => ({
      id,
      user_id: 7,
      match_id: 11,
      team_id: 1,
      amount: 1000,
      odds,
      status: 'placed',
      potential_win,
      created_at: '2026-11-21T14:00:00Z',
      settled_at: null,
      match,
      team: match.team1,
    });
    mockApi({ 'GET /api/bets': { body: [bet(2, 1.85, 1850), bet(1, 3, 3000)] } });
    renderWithProviders(<MyBetsRoute />);
    expect(await screen.findByText(/at 1\.85x/)).toHaveTextContent('Bet on MI · ₹1,000 at 1.85x');
    expect(screen.getByText(/at 3\.00x/)).toHaveTextContent('Bet on MI · ₹1,000 at 3.00x');
    expect(screen.getByText('₹1,850')).toBeInTheDocument();
  });
});
