import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMatch } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
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
