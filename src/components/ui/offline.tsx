/**
 * What the app shows while offline: a hint under each action that needs the server (place bet, deposit,
 * withdraw, declare), which are disabled meanwhile, and when a list was last loaded. Nothing of money is
 * guessed: a list offline is the server's last answer, marked with its time.
 */
import { Text } from '@chakra-ui/react';
import { formatTime } from '../../lib/format.ts';
import { useOnline } from '../../lib/use-online.ts';

export const CONNECT_TO_CONTINUE = 'Connect to the internet to continue';

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
