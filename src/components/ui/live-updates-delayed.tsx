/**
 * On a live page whose live updates cannot arrive (the channel refused, over its quota or lost): says so
 * while the page polls the match instead, gone once the channel is back. Offline the offline banner says
 * more, and nothing polls.
 */
import { Box, Text } from '@chakra-ui/react';
import { useLiveUpdatesDelayed } from '@/lib/use-match-updates.ts';
import { useOnline } from '@/lib/use-online.ts';

export const LIVE_UPDATES_DELAYED = 'Live updates delayed';

export function LiveUpdatesDelayed() {
  const delayed = useLiveUpdatesDelayed();
  if (!useOnline() || !delayed) return null;
  return (
    <Box role="status" bg="orange.50" color="orange.900" borderRadius="md" px="3" py="2" mb="4" fontSize="sm">
      <Text as="span" fontWeight="semibold">
        {LIVE_UPDATES_DELAYED}
      </Text>{' '}
      <Text as="span">The score refreshes every few seconds until they are back.</Text>
    </Box>
  );
}
