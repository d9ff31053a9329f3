/**
 * Beyond the spec: void an upcoming or live match. The dialog names how many open bets get cancelled and
 * the total refunded, computed from the match's bets (only bets still 'placed' are refunded).
 */
import { Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { notify } from '../../../components/ui/toaster.tsx';
import type { Bet, Match } from '../../../domain/entities.ts';
import { formatRupees } from '../../../domain/money.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAbandonMatch } from '../api/abandon-match.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

export function refundSummary(bets: readonly Bet[]): { count: number; total: number } {
  const open = bets.filter((bet) => bet.status === 'placed');
  return { count: open.length, total: open.reduce((sum, bet) => sum + bet.amount, 0) };
}

export function AbandonMatchButton({ match, bets }: { match: Match; bets: readonly Bet[] | undefined }) {
  const [open, setOpen] = useState(false);
  const abandon = useAbandonMatch();
  const { count, total } = refundSummary(bets ?? []);

  const onConfirm = () =>
    abandon.mutate(match.id, {
      onSuccess: () => {
        setOpen(false);
        notify({ title: 'Match abandoned', description: `${count} ${count === 1 ? 'bet' : 'bets'} cancelled and ${formatRupees(total)} refunded.` });
      },
      onError: (error) => notify({ title: 'Failed to abandon match', description: errorMessage(error), variant: 'destructive' }),
    });

  return (
    <>
      <Button colorPalette="red" variant="outline" onClick={() => setOpen(true)} disabled={bets === undefined}>
        Abandon Match
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Abandon Match"
        confirmLabel="Abandon Match"
        confirmPalette="red"
        onConfirm={onConfirm}
        pending={abandon.isPending}
      >
        <Stack gap="2">
          <Text>
            Match #{match.id} will be marked as completed with the result 'Match abandoned'.
          </Text>
          <Text fontWeight="semibold" data-testid="abandon-summary">
            {count} {count === 1 ? 'bet' : 'bets'} will be cancelled and {formatRupees(total)} refunded to the players.
          </Text>
          <Text color="fg.muted" fontSize="sm">
            This cannot be undone.
          </Text>
        </Stack>
      </ConfirmDialog>
    </>
  );
}
