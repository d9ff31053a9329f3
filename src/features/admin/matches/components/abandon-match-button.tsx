/**
 * Voids an upcoming or live match. The dialog names how many open bets get cancelled and
 * the total refunded: the count and open stake the server sends with the first page of the match's bets
 * (a match that is not completed has only open bets).
 */
import { Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { notify } from '@/components/ui/toaster.tsx';
import type { Match } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useAbandonMatch } from '../api/abandon-match.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';

export interface Refund {
  /** open bets */
  count: number;
  /** rupees staked on them */
  total: number;
}

export function AbandonMatchButton({ match, refund }: { match: Match; refund: Refund | undefined }) {
  const [open, setOpen] = useState(false);
  const abandon = useAbandonMatch();
  const { count, total } = refund ?? { count: 0, total: 0 };

  // mutateAsync, not mutate's callbacks: the completed match (from the answer or from the live event,
  // whichever comes first) unmounts this button, and mutate's callbacks do not run for an unmounted caller.
  const onConfirm = () =>
    abandon.mutateAsync(match.id).then(
      () => {
        setOpen(false);
        notify({
          title: 'Match abandoned',
          description: `${count} ${count === 1 ? 'bet' : 'bets'} cancelled and ${formatRupees(total)} refunded.`,
        });
      },
      (error) => notify({ title: 'Failed to abandon match', description: errorMessage(error), variant: 'destructive' }),
    );

  return (
    <>
      <Button colorPalette="red" variant="outline" onClick={() => setOpen(true)} disabled={refund === undefined}>
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
          <Text>Match #{match.id} will be marked as completed with the result 'Match abandoned'.</Text>
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
