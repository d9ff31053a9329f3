/** The reality check's dialog: time played, the session's net result, and Continue / Take a break. */
import { Stack, Text } from '@chakra-ui/react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { formatRupees } from '@/domain/money.ts';
import type { PlaySession } from '@/domain/protection-schemas.ts';
import { formatNet, formatPlayingTime } from '@/domain/reality-check.ts';

interface RealityCheckDialogProps {
  played: number;
  session: PlaySession;
  onContinue: () => void;
  onTakeBreak: () => void;
}

export function RealityCheckDialog({ played, session, onContinue, onTakeBreak }: RealityCheckDialogProps) {
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onContinue()}
      closeOnInteractOutside={false}
      title="Reality check"
      cancelLabel="Take a break"
      onCancel={onTakeBreak}
      confirmLabel="Continue"
      onConfirm={onContinue}
    >
      <Stack gap="2">
        <Text fontSize="lg">{`You have been playing for ${formatPlayingTime(played)}`}</Text>
        <Text data-testid="session-net">{`Net result this session: ${formatNet(session.net)}`}</Text>
        <Text fontSize="sm" color="fg.muted">
          {`Won ${formatRupees(session.won)}, staked ${formatRupees(session.staked)} since you started playing.`}
        </Text>
      </Stack>
    </ConfirmDialog>
  );
}
