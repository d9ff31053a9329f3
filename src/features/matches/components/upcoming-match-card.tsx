import { Button, Card, HStack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { Match } from '@/domain/entities.ts';
import { fallbackTeam } from '@/domain/teams.ts';
import { paths } from '@/config/paths.ts';
import { formatDate, formatTime } from '@/lib/format.ts';
import { TeamBadge } from '@/components/team-badge.tsx';

export function UpcomingMatchCard({ match }: { match: Match }) {
  const title = `${(match.team1 ?? fallbackTeam(match.team1_id)).short_name} vs ${(match.team2 ?? fallbackTeam(match.team2_id)).short_name}`;
  return (
    <Card.Root size="sm" as="article" aria-label={title}>
      <Card.Body gap="3">
        <HStack align="start">
          <TeamBadge team={match.team1} teamId={match.team1_id} />
          <Text alignSelf="center" fontWeight="bold" color="fg.muted">
            VS
          </Text>
          <TeamBadge team={match.team2} teamId={match.team2_id} />
        </HStack>
        <Text fontSize="sm" color="fg.muted" textAlign="center">
          {formatDate(match.start_time)} · {formatTime(match.start_time)}
        </Text>
        {match.venue && (
          <Text fontSize="sm" color="fg.muted" textAlign="center">
            {match.venue}
          </Text>
        )}
      </Card.Body>
      <Card.Footer>
        <Button asChild size="sm" variant="outline" colorPalette="blue" width="full">
          <RouterLink to={paths.liveMatch(match.id)} aria-label={`Bet on ${title}`}>
            Bet Now
          </RouterLink>
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
