/** 'You're offline' across the top of every page while the device has no network; gone once it is back. */
import { Box, Text } from '@chakra-ui/react';
import { useOnline } from '../../lib/use-online.ts';

export function OfflineBanner() {
  if (useOnline()) return null;
  return (
    <Box role="status" bg="gray.800" color="white" px="4" py="2" textAlign="center" fontSize="sm" position="sticky" top="0" zIndex="banner">
      <Text as="span" fontWeight="semibold">
        You're offline
      </Text>{' '}
      <Text as="span">Lists show what was last loaded; payments and bets wait for the connection.</Text>
    </Box>
  );
}
