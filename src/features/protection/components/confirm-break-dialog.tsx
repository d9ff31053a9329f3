/**
 * The last word before a time-out or self-exclusion: it starts at once and nobody can lift it. A chunk of
 * its own (take-a-break.tsx loads it after the first paint): the page shows no dialog until asked.
 */
import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';

interface ConfirmProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  /** 'time-out' or 'self-exclusion', as the texts name it */
  name: string;
  title: string;
  actionLabel: string;
  /** the length chosen, e.g. '7 days' */
  length: string;
  pending: boolean;
}

export function ConfirmBreakDialog({
  open,
  onOpenChange,
  onConfirm,
  name,
  title,
  actionLabel,
  length,
  pending,
}: ConfirmProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      role="alertdialog"
      placement="center"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{`${title} for ${length}?`}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Dialog.Description color="fg">
                  {`For ${length} from now you will not be able to bet or deposit. You can still sign in, see your history and withdraw, and bets you have already placed are settled as usual.`}
                </Dialog.Description>
                <Text fontWeight="semibold">{`This cannot be undone: nobody can shorten or lift the ${name}, not you and not our support team.`}</Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button colorPalette="red" loading={pending} onClick={onConfirm}>
                {actionLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
