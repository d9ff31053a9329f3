/**
 * The last word before a time-out or self-exclusion: it starts at once and nobody can lift it. A chunk of
 * its own (take-a-break.tsx loads it after the first paint): the page shows no dialog until asked.
 */
import { Text } from '@chakra-ui/react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';

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

export function ConfirmBreakDialog({ name, title, actionLabel, length, ...dialog }: ConfirmProps) {
  return (
    <ConfirmDialog
      {...dialog}
      title={`${title} for ${length}?`}
      description={`For ${length} from now you will not be able to bet or deposit. You can still sign in, see your history and withdraw, and bets you have already placed are settled as usual.`}
      confirmLabel={actionLabel}
      confirmPalette="red"
    >
      <Text fontWeight="semibold">{`This cannot be undone: nobody can shorten or lift the ${name}, not you and not our support team.`}</Text>
    </ConfirmDialog>
  );
}
