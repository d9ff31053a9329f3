import { Badge, Card, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import type { Match } from '@/domain/entities.ts';
import { fallbackTeam } from '@/domain/teams.ts';
import { formatDate, formatTime } from '@/lib/format.ts';
import { MatchState } from './match-state.tsx';
import { TeamBadge } from '@/components/team-badge.tsx';

/** The detailed view of one match: teams, scores, state, time and venue. */
export function MatchDetailCard({ match, headingLevel = 'h2' }: { match: Match; headingLevel?: 'h1' | 'h2' }) {
  const showScores = match.status !== 'upcoming';
  return (
    <Card.Root>
      <Card.Header>
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Heading as={headingLevel} size="md">
            {(match.team1 ?? fallbackTeam(match.team1_id)).short_name} vs{' '}
            {(match.team2 ?? fallbackTeam(match.team2_id)).short_name}
          </Heading>
          <Badge variant="outline">{match.match_type.toUpperCase()}</Badge>
        </HStack>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <HStack align="start" gap="2">
            <TeamBadge team={match.team1} teamId={match.team1_id} score={showScores ? match.team1_score : undefined} />
            <Text alignSelf="center" fontWeight="bold" color="fg.muted">
              VS
            </Text>
            <TeamBadge team={match.team2} teamId={match.team2_id} score={showScores ? match.team2_score : undefined} />
          </HStack>
          <MatchState match={match} />
          {match.status === 'live' && match.current_innings && (
            <Text fontSize="sm" textAlign="center" color="fg.muted">
              {match.current_innings === 1 ? '1st' : '2nd'} Innings
            </Text>
          )}
          <Stack gap="0" fontSize="sm" color="fg.muted" textAlign="center">
            <Text>
              {formatDate(match.start_time)} · {formatTime(match.start_time)}
            </Text>
            {match.venue && <Text>{match.venue}</Text>}
          </Stack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
