/**
 * /live/{id}: the match in detail, kept live by pushed changes (polled every few seconds, saying `Live
 * updates delayed`, while they cannot arrive), with the bet slip (loaded after the first paint) unless
 * completed (offline: as last loaded).
 */
import { Container, Grid, Text } from '@chakra-ui/react';
import { useParams } from 'react-router';
import { LiveUpdatesDelayed } from '@/components/ui/live-updates-delayed.tsx';
import { LastUpdated } from '@/components/ui/offline.tsx';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import { useMatchUpdates } from '@/lib/use-match-updates.ts';
import { useUser } from '@/lib/auth.ts';
import { useMatch } from '@/features/matches/api/get-match.ts';
import { MatchDetailCard } from '@/features/matches/components/match-detail-card.tsx';
import { DeferredBetSlip } from './live-match-slip.tsx';

export const MATCH_NOT_FOUND = 'Match not found.';

export function LiveMatchRoute() {
  const { id } = useParams();
  const matchId = Number(id);
  const match = useMatch(matchId);
  useMatchUpdates();
  const { data: user } = useUser();
  useErrorToast(match.error, 'Error loading match');

  const validId = Number.isInteger(matchId) && matchId > 0;
  return (
    <Container maxW="5xl" py="6">
      {validId && match.isPending ? (
        <PageSpinner label="Loading match" />
      ) : !validId || !match.data ? (
        <Text fontSize="lg" textAlign="center" py="12" role={match.isError ? 'alert' : undefined}>
          {match.isError ? 'Error loading match. Please try again later.' : MATCH_NOT_FOUND}
        </Text>
      ) : (
        <>
          <LastUpdated at={match.dataUpdatedAt} />
          {match.data.status !== 'completed' && <LiveUpdatesDelayed />}
          <Grid
            templateColumns={{ base: '1fr', md: match.data.status === 'completed' ? '1fr' : '3fr 2fr' }}
            gap="6"
            alignItems="start"
          >
            <MatchDetailCard match={match.data} headingLevel="h1" />
            {match.data.status !== 'completed' && <DeferredBetSlip match={match.data} user={user} />}
          </Grid>
        </>
      )}
    </Container>
  );
}
