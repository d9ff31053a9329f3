import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { BettingSuspensionButton } from './betting-suspension-button.tsx';

describe('suspend and resume betting', () => {
  it('suspends an open match after a confirmation', async () => {
    const calls = mockApi({ 'PATCH /api/admin/matches/11/suspend': { body: aMatch({ betting: 'suspended' }) } });
    const { user } = renderAdmin(<BettingSuspensionButton match={aMatch()} />);
    await user.click(screen.getByRole('button', { name: 'Suspend Betting' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Suspend Betting' });
    expect(dialog).toHaveTextContent(
      "Players cannot bet on Match #11 until betting is resumed; their bet slips show 'Betting is suspended for this match' at once.",
    );
    expect(calls).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Suspend Betting' }));
    expect(await screen.findByText('Betting suspended')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'PATCH', url: '/api/admin/matches/11/suspend', body: undefined }]);
  });

  it('resumes a suspended match after a confirmation', async () => {
    const calls = mockApi({ 'PATCH /api/admin/matches/11/resume': { body: aMatch() } });
    const { user } = renderAdmin(<BettingSuspensionButton match={aMatch({ betting: 'suspended' })} />);
    await user.click(screen.getByRole('button', { name: 'Resume Betting' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Resume Betting' })).getByRole('button', {
        name: 'Resume Betting',
      }),
    );
    expect(await screen.findByText('Betting resumed')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'PATCH', url: '/api/admin/matches/11/resume', body: undefined }]);
  });

  it("shows the server's refusal", async () => {
    mockApi({
      'PATCH /api/admin/matches/11/suspend': { status: 409, body: { message: 'Match is already completed' } },
    });
    const { user } = renderAdmin(<BettingSuspensionButton match={aMatch()} />);
    await user.click(screen.getByRole('button', { name: 'Suspend Betting' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Suspend Betting' }));
    expect(await screen.findByText('Failed to suspend betting')).toBeInTheDocument();
    expect(screen.getByText('409: Match is already completed')).toBeInTheDocument();
  });

  it('offers nothing on a completed match', () => {
    renderAdmin(<BettingSuspensionButton match={aMatch({ status: 'completed', betting: 'closed' })} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('resumes a match the close rule closed in play, and says when it stays closed', async () => {
    const calls = mockApi({ 'PATCH /api/admin/matches/11/resume': { body: aMatch({ betting: 'closed' }) } });
    const { user } = renderAdmin(<BettingSuspensionButton match={aMatch({ betting: 'closed' })} />);
    await user.click(screen.getByRole('button', { name: 'Resume Betting' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Resume Betting' });
    expect(dialog).toHaveTextContent(
      'The close rule closed betting on Match #11. Resume only after correcting a wrong over',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Resume Betting' }));
    expect(await screen.findByText('Betting stays closed')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'PATCH', url: '/api/admin/matches/11/resume', body: undefined }]);
  });
});
