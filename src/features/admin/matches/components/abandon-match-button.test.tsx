import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { AbandonMatchButton } from './abandon-match-button.tsx';

describe('abandon match', () => {
  it('names the open bets and the total to refund, then abandons the match', async () => {
    const calls = mockApi({
      'PATCH /api/admin/matches/11/abandon': { body: aMatch({ status: 'completed', match_result: 'Match abandoned' }) },
    });
    const { user } = renderAdmin(<AbandonMatchButton match={aMatch()} refund={{ count: 2, total: 3500 }} />);
    await user.click(screen.getByRole('button', { name: 'Abandon Match' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Abandon Match' });
    expect(within(dialog).getByTestId('abandon-summary')).toHaveTextContent(
      '2 bets will be cancelled and ₹3,500 refunded to the players.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Abandon Match' }));
    expect(await screen.findByText('Match abandoned')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'PATCH', url: '/api/admin/matches/11/abandon', body: undefined }]);
  });
});
