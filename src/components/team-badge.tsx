import { Box, Image, Stack, Text } from '@chakra-ui/react';
import type { Team } from '../domain/entities.ts';
import { fallbackTeam } from '../domain/teams.ts';

/** A team's logo (or its short name in a circle as fallback) above its name, and its score when given ('-' when empty). Names come from the fixed team table when the match carries no team object. */
export function TeamBadge({ team, teamId, score }: { team?: Team | null; teamId: number; score?: string | null }) {
  const shown = team ?? { ...fallbackTeam(teamId), logo_url: null };
  return (
    <Stack align="center" gap="1" flex="1" minW="0" textAlign="center">
      {shown.logo_url ? (
        <Image src={shown.logo_url} alt="" boxSize="12" objectFit="contain" />
      ) : (
        <Box
          aria-hidden="true"
          boxSize="12"
          rounded="full"
          bg="blue.700"
          color="white"
          fontWeight="bold"
          fontSize="sm"
          display="flex"
          alignItems="center"
          justifyContent="center"
        >
          {shown.short_name}
        </Box>
      )}
      <Text fontWeight="semibold" lineClamp={2}>
        {shown.name}
      </Text>
      {score !== undefined && (
        <Text fontSize="lg" fontWeight="bold" aria-label={`${shown.short_name} score`}>
          {score || '-'}
        </Text>
      )}
    </Stack>
  );
}
