/** The reality check's dialog: time played, the session's net result, and Continue / Take a break. */
import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { formatRupees } from '../../domain/money.ts';
import type { PlaySession } from '../../domain/protection-schemas.ts';
import { formatNet, formatPlayingTime } from '../../domain/reality-check.ts';

interface RealityCheckDialogProps {
  played: number;
  session: PlaySession;
  onContinue: () => void;
  onTakeBreak: () => void;
}

export function RealityCheckDialog({ played, session, onContinue, onTakeBreak }: RealityCheckDialogProps) {
  return (
    <Dialog.Root
      open
      role="alertdialog"
      placement="center"
      closeOnInteractOutside={false}
      onOpenChange={(details) => !details.open && onContinue()}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Reality check</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="2">
                <Text fontSize="lg">{`You have been playing for ${formatPlayingTime(played)}`}</Text>
                <Text data-testid="session-net">{`Net result this session: ${formatNet(session.net)}`}</Text>
                <Text fontSize="sm" color="fg.muted">
                  {`Won ${formatRupees(session.won)}, staked ${formatRupees(session.staked)} since you started playing.`}
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onTakeBreak}>
                Take a break
              </Button>
              <Button colorPalette="blue" onClick={onContinue}>
                Continue
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
