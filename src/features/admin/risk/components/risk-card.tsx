/**
 * The house's book on a match. Per side the bets, the stakes and what its backers would be
 * paid should it win (each bet at its own odds), and the house's net on each result (red when the house would
 * lose); the current prices and their over-round, with the warning below 100. Refetched every few seconds
 * while the match is open for changes (get-match-risk.ts says why).
 */
import { Stack, Table, Text } from '@chakra-ui/react';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import type { Match } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { formatOdds } from '@/domain/price.ts';
import { useMatchRisk } from '../api/get-match-risk.ts';
import { matchTeams } from '@/features/admin/shared/lib/labels.ts';
import { LoadError } from '@/components/ui/load-error.tsx';
import { OverroundLine } from './overround-line.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';

function netColor(net: number): string | undefined {
  if (net < 0) return 'red.600';
  return net > 0 ? 'green.700' : undefined;
}

export function RiskCard({ match }: { match: Match }) {
  const risk = useMatchRisk(match.id, { live: match.status !== 'completed' });
  const [team1, team2] = matchTeams(match);
  const rows = risk.data
    ? [
        { team: team1, side: risk.data.team1, net: risk.data.net_if_team1_wins },
        { team: team2, side: risk.data.team2, net: risk.data.net_if_team2_wins },
      ]
    : [];

  return (
    <SectionCard
      title="Risk"
      description="What is staked on each side and what the house makes or loses on each result."
    >
      {risk.isPending ? (
        <PageSpinner label="Loading risk" />
      ) : risk.isError ? (
        <LoadError what="risk" />
      ) : (
        <Stack gap="3">
          <Table.ScrollArea>
            <Table.Root size="sm" aria-label="Risk">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Team</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Bets</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Staked</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Payout if it wins</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">House net if it wins</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map(({ team, side, net }) => (
                  <Table.Row key={team.id}>
                    <Table.Cell>{team.name}</Table.Cell>
                    <Table.Cell textAlign="end">{side.bets}</Table.Cell>
                    <Table.Cell textAlign="end">{formatRupees(side.staked)}</Table.Cell>
                    <Table.Cell textAlign="end">{formatRupees(side.payout_if_wins)}</Table.Cell>
                    <Table.Cell textAlign="end" fontWeight="semibold" color={netColor(net)}>
                      {formatRupees(net)}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <Text fontSize="sm" data-testid="risk-prices">
            Prices now: {team1.short_name} {formatOdds(risk.data.team1_odds)} · {team2.short_name}{' '}
            {formatOdds(risk.data.team2_odds)}
          </Text>
          <OverroundLine percent={risk.data.overround_percent} />
        </Stack>
      )}
    </SectionCard>
  );
}
