/** The header's session clock: the time played in this play session (hours:minutes), from the server's start. */
import { Text, VisuallyHidden } from '@chakra-ui/react';
import { formatClock, formatPlayingTime } from '@/domain/reality-check.ts';
import { usePlayTime } from '@/lib/play-session.ts';

export function SessionClock() {
  const { session, played } = usePlayTime(true);
  if (!session) return null;
  return (
    <Text
      as="span"
      fontSize="xs"
      color="blue.100"
      fontVariantNumeric="tabular-nums"
      title={`Played for ${formatPlayingTime(played)}`}
      data-testid="session-clock"
    >
      <VisuallyHidden>Time played </VisuallyHidden>
      {formatClock(played)}
    </Text>
  );
}
