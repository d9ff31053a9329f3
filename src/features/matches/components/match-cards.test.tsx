import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '@/test/fixtures.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { MatchDetailCard } from './match-detail-card.tsx';
import { UpcomingMatchCard } from './upcoming-match-card.tsx';

const withoutTeams = aMatch({ team1_id: 3, team2_id: 42, team1: undefined, team2: undefined, status: 'upcoming' });

describe('match headings without team objects', () => {
  it('name the teams from the fixed table, or T{id} for an unknown one, in the match detail card', () => {
    renderWithProviders(<MatchDetailCard match={withoutTeams} />);
    expect(screen.getByRole('heading', { name: 'RCB vs T42' })).toBeInTheDocument();
  });

  it('name the teams from the fixed table in the upcoming match card', () => {
    renderWithProviders(<UpcomingMatchCard match={withoutTeams} />);
    expect(screen.getByRole('article', { name: 'RCB vs T42' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Bet on RCB vs T42' })).toBeInTheDocument();
  });
});

describe('a completed match', () => {
  it('shows its result, and why it was corrected once it was', () => {
    const corrected = aMatch({
      status: 'completed',
      winning_team_id: 2,
      match_result: 'Chennai Super Kings won the match',
      correction_reason: 'Wrong team tapped in the dialog',
    });
    renderWithProviders(<MatchDetailCard match={corrected} />);
    expect(screen.getByText('Chennai Super Kings won the match')).toBeInTheDocument();
    expect(screen.getByText('Result corrected: Wrong team tapped in the dialog')).toBeInTheDocument();
  });

  it('says nothing of a correction when there was none', () => {
    renderWithProviders(
      <MatchDetailCard match={aMatch({ status: 'completed', match_result: 'Mumbai Indians won the match' })} />,
    );
    expect(screen.queryByText(/Result corrected/)).not.toBeInTheDocument();
  });
});
