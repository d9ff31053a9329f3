import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ResultCorrection } from '@/domain/corrections.ts';
import { aMatch } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { ResultCorrectionCard } from './result-correction-card.tsx';

const settled = aMatch({
  id: 9,
  status: 'completed',
  winning_team_id: 1,
  match_result: 'Mumbai Indians won the match',
  settlement: { state: 'settled', settled: 2, total: 2 },
});
const correction: ResultCorrection = {
  id: 4,
  match_id: 9,
  winning_team_id: 2,
  result: 'Chennai Super Kings won the match',
  reason: 'Wrong team tapped in the dialog',
  previous_winning_team_id: 1,
  previous_result: 'Mumbai Indians won the match',
  status: 'pending',
  proposed_by: 1,
  proposed_by_username: 'me',
  decided_by: null,
  decided_at: null,
  applied_at: null,
  created_at: '2026-11-27T10:00:00Z',
};

describe('Correct Result', () => {
  it('proposes the other team with a reason, and says a second administrator must approve', async () => {
    let corrections: ResultCorrection[] = [];
    const calls = mockApi({
      'GET /api/user': { body: { id: 1, role: 'admin' } },
      'GET /api/admin/matches/9/corrections': () => ({ body: corrections }),
      'POST /api/admin/matches/9/correct-result': () => {
        corrections = [correction];
        return { status: 202, body: { message: 'A second administrator must approve this correction', correction } };
      },
    });
    const { user } = renderAdmin(<ResultCorrectionCard match={settled} />);
    const reason = await screen.findByRole('textbox', { name: 'Reason' });
    expect(screen.queryByRole('radio', { name: 'Mumbai Indians won' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Chennai Super Kings won' }));
    await user.type(reason, 'too short');
    await user.click(screen.getByRole('button', { name: 'Propose Correction' }));
    expect(await screen.findByText('Please give a reason of at least 10 characters')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);

    await user.clear(reason);
    await user.type(reason, 'Wrong team tapped in the dialog');
    await user.click(screen.getByRole('button', { name: 'Propose Correction' }));
    expect(await screen.findByText('Correction proposed')).toBeInTheDocument();
    expect(screen.getByText('A second administrator must approve this correction')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      winning_team_id: 2,
      reason: 'Wrong team tapped in the dialog',
    });
    const item = await screen.findByRole('listitem', { name: 'Correction #4' });
    expect(item).toHaveTextContent('Proposed by you');
    expect(within(item).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(item).getByRole('button', { name: 'Withdraw' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Propose Correction' })).toBeNull());
  });

  it("lets another administrator approve someone else's proposal", async () => {
    const calls = mockApi({
      'GET /api/user': { body: { id: 2, role: 'admin' } },
      'GET /api/admin/matches/9/corrections': { body: [correction] },
      'POST /api/admin/corrections/4/approve': { body: { ...correction, status: 'applying', decided_by: 2 } },
    });
    const { user } = renderAdmin(<ResultCorrectionCard match={settled} />);
    const item = await screen.findByRole('listitem', { name: 'Correction #4' });
    expect(item).toHaveTextContent('Proposed by me');
    await user.click(within(item).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Correction approved')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      '/api/admin/corrections/4/approve',
    ]);
  });
});
