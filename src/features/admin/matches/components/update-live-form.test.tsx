import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '@/test/fixtures.ts';
import { mockApi, writes } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { UpdateLiveForm } from './update-live-form.tsx';

describe('update live score', () => {
  it('sends the scores, innings, over and the team batting first', async () => {
    const calls = mockApi({ 'PATCH /api/admin/matches/11/update-live': { body: aMatch({ version: 2 }) } });
    const { user } = renderAdmin(<UpdateLiveForm match={aMatch({ batting_first_team_id: null })} />);
    expect(screen.getByRole('combobox', { name: 'Batting first' })).toHaveValue('');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Batting first' }), 'Chennai Super Kings');
    await user.type(screen.getByRole('textbox', { name: 'Chennai Super Kings score' }), '12/1');
    await user.click(screen.getByRole('button', { name: 'Update Score' }));
    expect(await screen.findByText('Match updated')).toBeInTheDocument();
    expect(writes(calls)[0].body).toEqual({
      team1_score: '145/3',
      team2_score: '12/1',
      current_innings: 1,
      current_over: 15.2,
      batting_first_team_id: 2,
    });
  });

  it('refuses a score that is not runs/wickets and an over past the innings of the match type', async () => {
    const calls = mockApi({});
    const { user } = renderAdmin(<UpdateLiveForm match={aMatch({ match_type: 'odi' })} />);
    const score = screen.getByRole('textbox', { name: 'Mumbai Indians score' });
    await user.clear(score);
    await user.type(score, '150/11');
    const over = screen.getByRole('textbox', { name: 'Over' });
    await user.clear(over);
    await user.type(over, '50.1');
    await user.click(screen.getByRole('button', { name: 'Update Score' }));
    expect(await screen.findByText('Score must look like 145/3')).toBeInTheDocument();
    expect(screen.getByText('Over must be between 0 and 50, with at most one decimal')).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
  });
});
