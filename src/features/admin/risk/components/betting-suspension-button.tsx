/**
 * Suspend Betting on an open match, Resume Betting on a suspended one or on one the close
 * rule closed in play (the close stays until an admin resumes; a match still past its close point stays
 * closed, and the toast says so), each after a confirmation. A completed match offers neither. The dialog
 * keeps the action it was opened for, also while it closes: the match changes under it once the action
 * succeeds.
 */
import { Button, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { notify } from '@/components/ui/toaster.tsx';
import type { Match } from '@/domain/entities.ts';
import { bettingTexts } from '@/domain/betting.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useSetBettingSuspended } from '../api/set-betting-suspended.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';

const actionLabel = (suspend: boolean) => (suspend ? 'Suspend Betting' : 'Resume Betting');
const palette = (suspend: boolean) => (suspend ? 'orange' : 'green');

export function BettingSuspensionButton({ match }: { match: Match }) {
  const [open, setOpen] = useState(false);
  /** what the dialog confirms: true suspends, false resumes */
  const [suspend, setSuspend] = useState(true);
  const change = useSetBettingSuspended();
  const openFor = (suspending: boolean) => {
    setSuspend(suspending);
    setOpen(true);
  };

  const onConfirm = () =>
    change.mutate(
      { id: match.id, suspended: suspend },
      {
        onSuccess: (changed) => {
          setOpen(false);
          notify(
            suspend
              ? { title: 'Betting suspended', description: `No bets are taken on Match #${match.id} until you resume.` }
              : changed.betting === 'closed'
                ? {
                    title: 'Betting stays closed',
                    description: `Match #${match.id} is still past its close point: correct the over first.`,
                  }
                : { title: 'Betting resumed', description: `Match #${match.id} takes bets again.` },
          );
        },
        onError: (error) =>
          notify({
            title: suspend ? 'Failed to suspend betting' : 'Failed to resume betting',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );

  return (
    <>
      {match.status !== 'completed' && (
        <Button
          colorPalette={palette(match.betting === 'open')}
          variant={match.betting === 'open' ? 'outline' : 'solid'}
          onClick={() => openFor(match.betting === 'open')}
        >
          {actionLabel(match.betting === 'open')}
        </Button>
      )}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={actionLabel(suspend)}
        confirmLabel={actionLabel(suspend)}
        confirmPalette={palette(suspend)}
        onConfirm={onConfirm}
        pending={change.isPending}
      >
        <Text>
          {suspend
            ? `Players cannot bet on Match #${match.id} until betting is resumed; their bet slips show '${bettingTexts.suspended}' at once. Bets already placed stay.`
            : match.betting === 'closed'
              ? `The close rule closed betting on Match #${match.id}. Resume only after correcting a wrong over: players can then bet on it again.`
              : `Players can bet on Match #${match.id} again.`}
        </Text>
      </ConfirmDialog>
    </>
  );
}
