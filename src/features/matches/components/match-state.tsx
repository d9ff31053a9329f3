import { Badge, HStack, Text } from '@chakra-ui/react';
import { correctionLabel } from '@/domain/corrections.ts';
import type { Match } from '@/domain/entities.ts';

/** The over as cricket writes it (12.3), or null when not known. */
export function formatOver(over: number | null | undefined): string | null {
  if (over === null || over === undefined || Number.isNaN(Number(over))) return null;
  return String(Number(over));
}

/**
 * 'Live Now' with the current over (or 'In progress') and 'Match in progress'; result (and `Result corrected:
 * {reason}` once corrected); or 'Match starts soon'.
 */
export function MatchState({ match }: { match: Match }) {
  if (match.status === 'live') {
    const over = formatOver(match.current_over);
    return (
      <HStack gap="3" wrap="wrap" justify="center">
        <Badge colorPalette="red" variant="solid">
          Live Now
        </Badge>
        <Text fontSize="sm" fontWeight="medium">
          {over ? `Over ${over}` : 'In progress'}
        </Text>
        <Text fontSize="sm" color="fg.muted">
          Match in progress
        </Text>
      </HStack>
    );
  }
  if (match.status === 'completed') {
    return (
      <>
        <Text fontWeight="semibold" color="green.700" textAlign="center">
          {match.match_result ?? match.additionalDetails?.status ?? 'Match completed'}
        </Text>
        {match.correction_reason && (
          <Text fontSize="sm" color="orange.700" textAlign="center">
            {correctionLabel(match.correction_reason)}
          </Text>
        )}
      </>
    );
  }
  return (
    <Text fontSize="sm" color="fg.muted" textAlign="center">
      Match starts soon
    </Text>
  );
}
