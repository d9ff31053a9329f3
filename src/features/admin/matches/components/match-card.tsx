/**
 * A match in the admin list: 'Match #{id}', status badge, '{Type} match', both teams and 'VS',
 * scores when live or completed ('-' if empty), the '{team} Won' badge, start time, venue, the innings/over
 * line of a live match, and Manage plus the start / declare shortcuts.
 */
import { Badge, Button, Card, HStack, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { notify } from '@/components/ui/toaster.tsx';
import type { Match } from '@/domain/entities.ts';
import { formatDateTime } from '@/domain/money.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useStartMatch } from '../api/start-match.ts';
import { adminPaths } from '@/config/paths.ts';
import { liveStateLabel, matchTypeLabel, teamOf } from '@/features/admin/shared/lib/labels.ts';
import { StatusBadge } from '@/features/admin/shared/components/status-badge.tsx';
import { TeamBadge } from '@/components/team-badge.tsx';

export function MatchCard({ match }: { match: Match }) {
  const navigate = useNavigate();
  const start = useStartMatch();
  const showScores = match.status === 'live' || match.status === 'completed';
  const winner = match.winning_team_id
    ? teamOf(
        match.winning_team_id === match.team1_id
          ? match.team1
          : match.winning_team_id === match.team2_id
            ? match.team2
            : null,
        match.winning_team_id,
      )
    : null;

  const onStart = () =>
    start.mutate(match.id, {
      onSuccess: () => notify({ title: 'Match started', description: 'The match is now live.' }),
      onError: (error) =>
        notify({ title: 'Failed to start match', description: errorMessage(error), variant: 'destructive' }),
    });

  return (
    <Card.Root as="article" aria-label={`Match #${match.id}`}>
      <Card.Header pb="2">
        <HStack justify="space-between">
          <Text fontWeight="bold">Match #{match.id}</Text>
          <StatusBadge kind="match" value={match.status} />
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          {matchTypeLabel(match.match_type)} match
        </Text>
      </Card.Header>
      <Card.Body gap="3" py="3">
        <HStack align="start" gap="2">
          <TeamBadge team={match.team1} teamId={match.team1_id} score={showScores ? match.team1_score : undefined} />
          <Text alignSelf="center" fontWeight="bold" color="fg.muted">
            VS
          </Text>
          <TeamBadge team={match.team2} teamId={match.team2_id} score={showScores ? match.team2_score : undefined} />
        </HStack>
        {winner && (
          <Badge colorPalette="yellow" variant="solid" alignSelf="center">
            {winner.name} Won
          </Badge>
        )}
        <Stack gap="0.5" fontSize="sm" color="fg.muted">
          <Text>{formatDateTime(match.start_time)}</Text>
          {match.venue && <Text>{match.venue}</Text>}
          {match.status === 'live' && (
            <Text color="red.600" fontWeight="medium">
              {liveStateLabel(match)}
            </Text>
          )}
        </Stack>
      </Card.Body>
      <Card.Footer gap="2" pt="2">
        <Button asChild size="sm" variant="outline" flex="1">
          <RouterLink to={adminPaths.match(match.id)}>Manage</RouterLink>
        </Button>
        {match.status === 'upcoming' && (
          <Button size="sm" colorPalette="green" flex="1" onClick={onStart} loading={start.isPending}>
            Start
          </Button>
        )}
        {match.status === 'live' && (
          <Button size="sm" colorPalette="yellow" flex="1" onClick={() => navigate(adminPaths.match(match.id))}>
            Declare Winner
          </Button>
        )}
      </Card.Footer>
    </Card.Root>
  );
}
