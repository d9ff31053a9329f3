import { Box, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { Bet } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { formatOdds } from '@/domain/price.ts';
import { fallbackTeam } from '@/domain/teams.ts';
import { paths } from '@/config/paths.ts';
import { formatDate, formatTime } from '@/lib/format.ts';
import { BetStatusBadge } from './bet-status-badge.tsx';

export const NO_BETS = "You haven't placed any bets yet.";
export const BETS_ERROR = 'Error loading bets. Please try again later.';

function BetRow({ bet }: { bet: Bet }) {
  const team1 = bet.match?.team1 ?? fallbackTeam(bet.match?.team1_id ?? 0);
  const team2 = bet.match?.team2 ?? fallbackTeam(bet.match?.team2_id ?? 0);
  const team = bet.team ?? fallbackTeam(bet.team_id);
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" rounded="md" p="4" bg="bg.panel">
      <HStack justify="space-between" align="start" gap="3" wrap="wrap">
        <Stack gap="0.5">
          <Link asChild fontWeight="semibold" color="blue.700">
            <RouterLink to={paths.liveMatch(bet.match_id)}>
              {team1.short_name} vs {team2.short_name}
            </RouterLink>
          </Link>
          <Text fontSize="sm">
            Bet on <strong>{team.short_name}</strong> · {formatRupees(bet.amount)} at {formatOdds(bet.odds)}x
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {formatDate(bet.created_at)} · {formatTime(bet.created_at)}
          </Text>
        </Stack>
        <Stack gap="1" align="end">
          <BetStatusBadge status={bet.status} />
          <Text fontSize="sm">
            Potential win <strong>{formatRupees(bet.potential_win)}</strong>
          </Text>
        </Stack>
      </HStack>
    </Box>
  );
}

export function BetList({ bets }: { bets: Bet[] }) {
  if (bets.length === 0) return <Text color="fg.muted">{NO_BETS}</Text>;
  return (
    <Stack as="ul" gap="3" aria-label="Bets">
      {bets.map((bet) => (
        <BetRow key={bet.id} bet={bet} />
      ))}
    </Stack>
  );
}
