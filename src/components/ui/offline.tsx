/**
 * What the app shows while offline: a banner across every page, a hint under each action that needs the
 * server (place bet, deposit, withdraw, declare), which are disabled meanwhile, and when a list was last
 * loaded. Nothing of money is guessed: a list offline is the server's last answer, marked with its time.
 * One module with the banner, so it travels in the app shell chunk (the pages need no request of their own
 * for it).
 */
import { Box, Text } from '@chakra-ui/react';
import { formatTime } from '@/lib/format.ts';
import { useOnline } from '@/lib/use-online.ts';

export const CONNECT_TO_CONTINUE = 'Connect to the internet to continue';

/** 'You're offline' across the top of every page while the device has no network; gone once it is back. */
export function OfflineBanner() {
  if (useOnline()) return null;
  return (
    <Box
      role="status"
      bg="gray.800"
      color="white"
      px="4"
      py="2"
      textAlign="center"
      fontSize="sm"
      position="sticky"
      top="0"
      zIndex="banner"
    >
      <Text as="span" fontWeight="semibold">
        You're offline
      </Text>{' '}
      <Text as="span">Lists show what was last loaded; payments and bets wait for the connection.</Text>
    </Box>
  );
}

/** Under an action the server must perform: says why it is disabled while offline. */
export function OfflineHint() {
  if (useOnline()) return null;
  return (
    <Text fontSize="sm" color="fg.muted" textAlign="center">
      {CONNECT_TO_CONTINUE}
    </Text>
  );
}

/** 'Last updated {time}' on a list while offline; `at` is when its data arrived (0: never). */
export function LastUpdated({ at }: { at: number }) {
  if (useOnline() || at === 0) return null;
  return (
    <Text fontSize="xs" color="fg.muted" data-testid="last-updated">
      {`Last updated ${formatTime(new Date(at).toISOString())}`}
    </Text>
  );
}
