/**
 * The columns of the back office's bet tables. A match's bets lead with the player who placed each one
 * ('Placed At'); a player's bets lead with the bet and its match ('Date'). The Team column shows the bet's
 * team short name, or 'Team {id}' when the answer carries no team.
 */
import { Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { Bet } from '@/domain/entities.ts';
import { formatDateTime, formatRupees } from '@/domain/money.ts';
import { formatOdds } from '@/domain/price.ts';
import { adminPaths } from '@/config/paths.ts';
import type { Column } from '@/components/ui/data-table.tsx';
import { StatusBadge } from './status-badge.tsx';

const player: Column<Bet> = {
  header: 'User ID',
  cell: (bet) => (
    <Link asChild color="blue.600">
      <RouterLink to={adminPaths.user(bet.user_id)}>{bet.user_id}</RouterLink>
    </Link>
  ),
};

const id: Column<Bet> = { header: 'ID', cell: (bet) => bet.id };

const match: Column<Bet> = {
  header: 'Match',
  cell: (bet) => <RouterLink to={adminPaths.match(bet.match_id)}>#{bet.match_id}</RouterLink>,
};

const betAndOutcome: Column<Bet>[] = [
  { header: 'Team', cell: (bet) => bet.team?.short_name ?? `Team ${bet.team_id}` },
  { header: 'Amount', end: true, cell: (bet) => formatRupees(bet.amount) },
  { header: 'Odds', end: true, cell: (bet) => `${formatOdds(bet.odds)}x` },
  { header: 'Potential Win', end: true, cell: (bet) => formatRupees(bet.potential_win) },
  { header: 'Status', cell: (bet) => <StatusBadge kind="bet" value={bet.status} /> },
];

const placedAt = (header: string): Column<Bet> => ({
  header,
  nowrap: true,
  cell: (bet) => formatDateTime(bet.created_at),
});

export const matchBetColumns: Column<Bet>[] = [player, ...betAndOutcome, placedAt('Placed At')];
export const userBetColumns: Column<Bet>[] = [id, match, ...betAndOutcome, placedAt('Date')];
