import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BetSlip } from '@/features/bets/components/bet-slip.tsx';
import { useMatch } from '@/features/matches/api/get-match.ts';
import { aMatch, aUser } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders, writes } from '@/test/render.tsx';

/** The live page's slip: fed by the cached match, which a refreshed price replaces. */
function LiveSlip() {
  const match = useMatch(11).data;
  return match ? <BetSlip match={match} user={aUser()} /> : null;
}

describe('a price that changes under an open slip', () => {
  it('says the odds have changed, with the new price, when the price the slip showed is refused', async () => {
    let match = aMatch();
    const calls = mockApi({
      'GET /api/matches/11': () => ({ body: match }),
      'POST /api/bets': ({ body }) =>
        (body as { odds: number }).odds === match.team1_odds
          ? { status: 201, body: { id: 1 } }
          : { status: 409, body: { message: 'Odds have changed' } },
    });
    const { user } = renderWithProviders(<LiveSlip />);
    await user.click(await screen.findByRole('button', { name: /MI 3\.00 Mumbai Indians/ }));
    await user.type(screen.getByRole('textbox', { name: 'Bet amount (₹)' }), '2000');
    // the admin's change, whose live event has not reached this page
    match = aMatch({ team1_odds: 1.7, version: 2 });
    await user.click(screen.getByRole('button', { name: 'Place Bet' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Odds have changed: MI is now 1.70');
    expect(screen.getByText('409: Odds have changed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /MI 1\.70 Mumbai Indians/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('potential-win')).toHaveTextContent('₹3,400');
    expect(writes(calls)[0].body).toMatchObject({ odds: 3, potential_win: 6000 });

    await user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Bet placed successfully')).toBeInTheDocument();
    expect(writes(calls)[1].body).toMatchObject({ odds: 1.7, potential_win: 3400 });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
