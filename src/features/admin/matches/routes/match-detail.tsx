/**
 * Match management: back to the list, 'Match #{id}' with its badge, the overview card, Start
 * Match (upcoming), the Declare Winner card (live), the live-score form and Abandon, the Match Bets table
 * (an inline error instead when the bets fail to load), the betting state's badge, Suspend/Resume Betting, the Odds card (the price of each side) and the Risk card
 * (house risk).
 */
import { Box, Button, Card, DataList, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import type { Match } from '@/domain/entities.ts';
import { formatDateTime } from '@/domain/money.ts';
import { correctionLabel } from '@/domain/corrections.ts';
import { settlementLabel } from '@/domain/settlement.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useAdminMatch } from '../api/get-admin-match.ts';
import { useMatchUpdates } from '@/lib/use-match-updates.ts';
import { useMatchBets } from '../api/get-match-bets.ts';
import { useStartMatch } from '../api/start-match.ts';
import { AbandonMatchButton } from '../components/abandon-match-button.tsx';
import { BettingSuspensionButton } from '@/features/admin/risk/components/betting-suspension-button.tsx';
import { DeclareWinnerCard } from '../components/declare-winner-card.tsx';
import { InfoItem } from '@/features/admin/shared/components/info-item.tsx';
import { MatchBetsTable } from '../components/match-bets-table.tsx';
import { OddsCard } from '@/features/admin/risk/components/odds-card.tsx';
import { PageHeader } from '@/features/admin/shared/components/page-header.tsx';
import { RiskCard } from '@/features/admin/risk/components/risk-card.tsx';
import { ResultCorrectionCard } from '../components/result-correction-card.tsx';
import { StatusBadge } from '@/features/admin/shared/components/status-badge.tsx';
import { TeamBadge } from '@/components/team-badge.tsx';
import { UpdateLiveForm } from '../components/update-live-form.tsx';
import { adminPaths } from '@/config/paths.ts';
import { liveStateLabel, matchTypeLabel, teamOf } from '@/features/admin/shared/lib/labels.ts';

function statusText(match: Match): string {
  if (match.status === 'completed') {
    if (match.match_result) return match.match_result;
    if (match.winning_team_id) {
      const team =
        match.winning_team_id === match.team1_id
          ? match.team1
          : match.winning_team_id === match.team2_id
            ? match.team2
            : null;
      return `${teamOf(team, match.winning_team_id).name} won the match`;
    }
    return 'Match completed';
  }
  return match.status === 'live' ? 'Match in progress' : 'Match starts soon';
}

function OverviewCard({ match }: { match: Match }) {
  const showScores = match.status === 'live' || match.status === 'completed';
  return (
    <Card.Root as="section" aria-label="Match overview">
      <Card.Body gap="5">
        <HStack align="start">
          <TeamBadge team={match.team1} teamId={match.team1_id} score={showScores ? match.team1_score : undefined} />
          <Text alignSelf="center" fontWeight="bold" color="fg.muted">
            VS
          </Text>
          <TeamBadge team={match.team2} teamId={match.team2_id} score={showScores ? match.team2_score : undefined} />
        </HStack>
        <Text textAlign="center" fontWeight="semibold" color={match.status === 'completed' ? 'green.700' : 'fg.muted'}>
          {statusText(match)}
        </Text>
        {match.correction_reason && (
          <Text textAlign="center" fontSize="sm" color="orange.700">
            {correctionLabel(match.correction_reason)}
          </Text>
        )}
        <DataList.Root orientation="horizontal">
          <InfoItem label="Match Type">{matchTypeLabel(match.match_type)}</InfoItem>
          <InfoItem label="Date & Time">{formatDateTime(match.start_time)}</InfoItem>
          <InfoItem label="Venue">{match.venue || '-'}</InfoItem>
          {match.status === 'live' && <InfoItem label="Current State">{liveStateLabel(match)}</InfoItem>}
          {match.settlement && <InfoItem label="Settlement">{settlementLabel(match.settlement)}</InfoItem>}
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  );
}

export function MatchDetailRoute() {
  const id = Number(useParams().id);
  const { data: match, isPending, error } = useAdminMatch(id);
  useMatchUpdates();
  const bets = useMatchBets(id);
  const start = useStartMatch();
  useErrorToast(error, 'Error loading match');
  useErrorToast(bets.error, 'Error loading bets');

  const back = (
    <Button asChild variant="ghost" size="sm" mb="2">
      <RouterLink to={adminPaths.matches}>← Back to Matches</RouterLink>
    </Button>
  );

  if (isPending && Number.isInteger(id) && id > 0) return <PageSpinner label="Loading match" />;
  if (!match) {
    return (
      <Box>
        {back}
        <Heading as="h1" size="xl">
          Match not found.
        </Heading>
      </Box>
    );
  }

  const onStart = () =>
    start.mutate(match.id, {
      onSuccess: () => notify({ title: 'Match started', description: 'The match is now live.' }),
      onError: (err) =>
        notify({ title: 'Failed to start match', description: errorMessage(err), variant: 'destructive' }),
    });

  return (
    <Box>
      {back}
      <PageHeader
        title={`Match #${match.id}`}
        badge={
          <>
            <StatusBadge kind="match" value={match.status} size="lg" />
            {match.status !== 'completed' && <StatusBadge kind="betting" value={match.betting} size="lg" />}
          </>
        }
        actions={
          <>
            {match.status === 'upcoming' && (
              <Button colorPalette="green" onClick={onStart} loading={start.isPending}>
                Start Match
              </Button>
            )}
            {match.status !== 'completed' && <BettingSuspensionButton match={match} />}
            {match.status !== 'completed' && (
              <AbandonMatchButton
                match={match}
                refund={bets.total === null ? undefined : { count: bets.total, total: bets.stake ?? 0 }}
              />
            )}
          </>
        }
      />
      <Stack gap="6">
        <SimpleGrid columns={{ base: 1, lg: match.status === 'live' ? 2 : 1 }} gap="6" alignItems="start">
          <OverviewCard match={match} />
          {match.status === 'live' && <DeclareWinnerCard key={match.id} match={match} />}
        </SimpleGrid>
        {match.status === 'live' && <UpdateLiveForm key={match.id} match={match} />}
        {match.status !== 'completed' && (
          <OddsCard key={`${match.id}:${match.team1_odds}:${match.team2_odds}`} match={match} />
        )}
        {match.status === 'completed' && <ResultCorrectionCard match={match} />}
        <RiskCard match={match} />
        {bets.isPending ? (
          <PageSpinner label="Loading bets" />
        ) : bets.isError ? (
          <Text color="fg.error" role="alert">
            Error loading bets. Please try again later.
          </Text>
        ) : (
          <MatchBetsTable bets={bets.items ?? []} count={bets.total ?? 0} list={bets} />
        )}
      </Stack>
    </Box>
  );
}
