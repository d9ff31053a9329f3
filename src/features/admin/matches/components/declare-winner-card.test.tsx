import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { DeclareWinnerCard } from './declare-winner-card.tsx';

const declareButton = () => screen.getByRole('button', { name: 'Declare Winner & Process Bets' });

describe('declare winner card', () => {
  it('keeps Declare Winner & Process Bets disabled until a team is picked', async () => {
    mockApi({});
    const { user } = renderAdmin(<DeclareWinnerCard match={aMatch()} />);
    expect(declareButton()).toBeDisabled();
    await user.click(screen.getByText('Chennai Super Kings (CSK)'));
    expect(declareButton()).toBeEnabled();
  });

  it('opens Confirm Match Winner with the selected team and the three consequences', async () => {
    mockApi({});
    const { user } = renderAdmin(<DeclareWinnerCard match={aMatch()} />);
    await user.click(screen.getByText('Mumbai Indians (MI)'));
    await user.click(declareButton());
    const dialog = await screen.findByRole('alertdialog', { name: 'Confirm Match Winner' });
    expect(within(dialog).getByTestId('selected-winner')).toHaveTextContent('Mumbai Indians');
    expect(within(dialog).getByText('Mark the match as completed')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Settle bets on the winning team at the odds each was placed at'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('Mark bets on the losing team as lost')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Confirm Winner' })).toBeEnabled();
  });

  it('sends the winning team and the result text, disables Confirm Winner while pending, then toasts', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = mockApi({
      'PATCH /api/admin/matches/11/declare-winner': () => ({
        body: aMatch({ status: 'completed', winning_team_id: 2 }),
      }),
    });
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      await gate;
      return realFetch(...args);
    }) as typeof fetch;
    const { user } = renderAdmin(<DeclareWinnerCard match={aMatch()} />);
    await user.click(screen.getByText('Chennai Super Kings (CSK)'));
    await user.click(declareButton());
    const dialog = await screen.findByRole('alertdialog', { name: 'Confirm Match Winner' });
    const confirm = within(dialog).getByRole('button', { name: 'Confirm Winner' });
    await user.click(confirm);
    await waitFor(() => expect(confirm).toBeDisabled());
    release();
    expect(await screen.findByText('Winner declared')).toBeInTheDocument();
    expect(screen.getByText('Match has been completed and winner has been declared.')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: 'PATCH',
        url: '/api/admin/matches/11/declare-winner',
        body: { winning_team_id: 2, result: 'Chennai Super Kings won the match' },
      },
    ]);
  });

  it('still toasts Winner declared when the live event of the settlement unmounts the card before the answer comes', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockApi({
      'PATCH /api/admin/matches/11/declare-winner': () => ({
        body: aMatch({ status: 'completed', winning_team_id: 1 }),
      }),
    });
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      await gate;
      return realFetch(...args);
    }) as typeof fetch;
    // The match page shows the card only while the match is live.
    function MatchPage() {
      const [live, setLive] = useState(true);
      return (
        <>
          {live && <DeclareWinnerCard match={aMatch()} />}
          <button type="button" onClick={() => setLive(false)}>
            settlement event
          </button>
        </>
      );
    }
    const { user } = renderAdmin(<MatchPage />);
    await user.click(screen.getByText('Mumbai Indians (MI)'));
    await user.click(declareButton());
    await user.click(await screen.findByRole('button', { name: 'Confirm Winner' }));
    fireEvent.click(screen.getByText('settlement event', { selector: 'button' })); // the event arrived first
    await waitFor(() => expect(screen.queryByText('Declare Winner')).not.toBeInTheDocument());
    release();
    expect(await screen.findByText('Winner declared')).toBeInTheDocument();
  });

  it('shows Failed to declare winner with the server message', async () => {
    mockApi({ 'PATCH /api/admin/matches/11/declare-winner': { status: 409, body: { message: 'Match is not live' } } });
    const { user } = renderAdmin(<DeclareWinnerCard match={aMatch()} />);
    await user.click(screen.getByText('Mumbai Indians (MI)'));
    await user.click(declareButton());
    await user.click(await screen.findByRole('button', { name: 'Confirm Winner' }));
    expect(await screen.findByText('Failed to declare winner')).toBeInTheDocument();
    expect(screen.getByText('409: Match is not live')).toBeInTheDocument();
  });

  it('falls back to the fixed team table when the match has no team objects', () => {
    mockApi({});
    const match = aMatch({ team1_id: 3, team2_id: 42 });
    renderAdmin(
      <DeclareWinnerCard match={{ ...match, team1: undefined, team2: undefined } as unknown as typeof match} />,
    );
    expect(screen.getByText('Royal Challengers Bangalore (RCB)')).toBeInTheDocument();
    expect(screen.getByText('Team 42 (T42)')).toBeInTheDocument();
  });
});
