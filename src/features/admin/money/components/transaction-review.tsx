/**
 * Approve / Reject of a pending transaction: the row's two buttons, and the confirmation dialog that says
 * what each does (for a withdrawal, that the bank transfer comes first; for a deposit, that no gateway
 * confirmed it; for an admin credit, that another admin asked for it) before it is sent. From the
 * second-approval threshold up, an approval may be the first of two: the toast then says a second
 * administrator must approve it.
 */
import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { notify } from '@/components/ui/toaster.tsx';
import type { Transaction } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useApproveTransaction } from '../api/approve-transaction.ts';
import { useRejectTransaction } from '../api/reject-transaction.ts';
import { humanize } from '@/features/admin/shared/lib/labels.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';

export type Review = { action: 'approve' | 'reject'; transaction: Transaction };

const outcomes = {
  approve: {
    done: 'Transaction approved',
    said: 'has been successfully approved and processed.',
    failed: 'Failed to approve transaction',
  },
  reject: { done: 'Transaction rejected', said: 'has been marked as failed.', failed: 'Failed to reject transaction' },
} as const;

/** The row's actions: Approve and Reject while it is pending, else '-'. */
export function ReviewButtons({
  transaction,
  onReview,
}: {
  transaction: Transaction;
  onReview: (review: Review) => void;
}) {
  if (transaction.status !== 'pending') return '-';
  return (
    <HStack gap="2">
      <Button size="xs" colorPalette="green" onClick={() => onReview({ action: 'approve', transaction })}>
        Approve
      </Button>
      <Button
        size="xs"
        colorPalette="red"
        variant="outline"
        onClick={() => onReview({ action: 'reject', transaction })}
      >
        Reject
      </Button>
    </HStack>
  );
}

function describe(transaction: Transaction): string {
  return `${humanize(transaction.type).toLowerCase()} #${transaction.id} of ${formatRupees(Math.abs(transaction.amount))} for user #${transaction.user_id}`;
}

function ReviewText({ review: { action, transaction } }: { review: Review }) {
  return (
    <Stack gap="2">
      <Text>
        {action === 'approve' ? 'Approve' : 'Reject'} the {describe(transaction)}?
      </Text>
      {action === 'approve' ? (
        <>
          <Text>Approving will process this payment and adjust the user's wallet balance.</Text>
          {transaction.type === 'withdrawal' && (
            <Text fontWeight="semibold" color="orange.700">
              For withdrawals, make sure you have processed the actual bank transfer before approving.
            </Text>
          )}
          {transaction.type === 'deposit' && (
            <Text fontWeight="semibold" color="orange.700">
              No payment gateway has confirmed this deposit: it counts towards your daily credit limit.
            </Text>
          )}
          {transaction.type === 'admin_adjustment' && (
            <Text fontWeight="semibold" color="orange.700">
              Another administrator asked for this credit: check its reason before approving.
            </Text>
          )}
        </>
      ) : (
        <Text>Rejecting will mark this transaction as failed. No funds will be moved.</Text>
      )}
    </Stack>
  );
}

/** Open while `review` is set; closes (through `onClose`) once the transaction is approved or rejected. */
export function ReviewDialog({ review, onClose }: { review: Review | null; onClose: () => void }) {
  const approve = useApproveTransaction();
  const reject = useRejectTransaction();
  const rejecting = review?.action === 'reject';
  const confirm = () => {
    if (!review) return;
    const { id } = review.transaction;
    const outcome = outcomes[review.action];
    const onError = (err: unknown) =>
      notify({ title: outcome.failed, description: errorMessage(err), variant: 'destructive' });
    const done = () => {
      onClose();
      notify({ title: outcome.done, description: `Transaction #${id} ${outcome.said}` });
    };
    if (rejecting) return reject.mutate(id, { onSuccess: done, onError });
    approve.mutate(id, {
      onSuccess: ({ waitingFor }) => {
        if (!waitingFor) return done();
        onClose();
        notify({ title: 'Approval recorded', description: waitingFor });
      },
      onError,
    });
  };
  return (
    <ConfirmDialog
      open={review !== null}
      onOpenChange={(open) => !open && onClose()}
      title={rejecting ? 'Reject Transaction' : 'Approve Transaction'}
      confirmLabel={rejecting ? 'Reject' : 'Approve'}
      confirmPalette={rejecting ? 'red' : 'green'}
      onConfirm={confirm}
      pending={approve.isPending || reject.isPending}
    >
      {review && <ReviewText review={review} />}
    </ConfirmDialog>
  );
}
