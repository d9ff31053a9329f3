import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '@/test/fixtures.ts';
import { mockApi, writes } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { OddsCard } from './odds-card.tsx';

describe('odds card', () => {
  it('shows the prices with their over-round, warns below 100, and saves the prices typed', async () => {
    const calls = mockApi({
      'PATCH /api/admin/matches/11/odds': { body: aMatch({ team1_odds: 1.85, team2_odds: 1.95, version: 2 }) },
    });
    const { user } = renderAdmin(<OddsCard match={aMatch()} />);
    const mi = screen.getByRole('textbox', { name: 'Mumbai Indians odds' });
    const csk = screen.getByRole('textbox', { name: 'Chennai Super Kings odds' });
    expect(mi).toHaveValue('3.00');
    expect(csk).toHaveValue('3.00');
    expect(screen.getByText('Over-round: 66.7 %')).toBeInTheDocument();
    expect(screen.getByText('Players can back both teams for a certain profit')).toBeInTheDocument();

    await user.clear(mi);
    await user.type(mi, '1.85');
    await user.clear(csk);
    await user.type(csk, '1.95');
    expect(screen.getByText('Over-round: 105.3 %')).toBeInTheDocument();
    expect(screen.queryByText('Players can back both teams for a certain profit')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Odds' }));
    expect(await screen.findByText('Odds updated')).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      { method: 'PATCH', url: '/api/admin/matches/11/odds', body: { team1_odds: 1.85, team2_odds: 1.95 } },
    ]);
  });

  it('refuses prices that are not prices with their messages, and sends nothing', async () => {
    const calls = mockApi({});
    const { user } = renderAdmin(<OddsCard match={aMatch()} />);
    const mi = screen.getByRole('textbox', { name: 'Mumbai Indians odds' });
    const csk = screen.getByRole('textbox', { name: 'Chennai Super Kings odds' });
    await user.clear(mi);
    await user.type(mi, '1');
    await user.clear(csk);
    await user.type(csk, '1.855');
    await user.click(screen.getByRole('button', { name: 'Save Odds' }));
    expect(await screen.findByText('Odds must be between 1.01 and 100.00')).toBeInTheDocument();
    expect(screen.getByText('Odds must have at most two decimals')).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
  });

  it("shows the server's refusal", async () => {
    mockApi({ 'PATCH /api/admin/matches/11/odds': { status: 409, body: { message: 'This match is closed' } } });
    const { user } = renderAdmin(<OddsCard match={aMatch()} />);
    await user.click(screen.getByRole('button', { name: 'Save Odds' }));
    expect(await screen.findByText('Failed to update odds')).toBeInTheDocument();
    expect(screen.getByText('409: This match is closed')).toBeInTheDocument();
  });
});
