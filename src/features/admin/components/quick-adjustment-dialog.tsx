/**
 * Quick Adjustment: a signed amount (positive adds, negative removes) and optional notes;
 * the button is disabled while the amount is empty. The API needs a reason, so empty notes send a default.
 */
import { Button, Input, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { FormField } from '../../../components/ui/form-field.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import type { User } from '../../../domain/entities.ts';
import { MAX_NOTES } from '../../../domain/limits.ts';
import { formatRupees } from '../../../domain/money.ts';
import { adjustmentSchema } from '../../../domain/schemas.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAdjustWallet } from '../api/adjust-wallet.ts';
import { FormDialog } from './form-dialog.tsx';

export const QUICK_ADJUSTMENT_NOTE = 'Quick adjustment';

export function QuickAdjustmentDialog({
  user,
  buttonVariant = 'outline',
}: {
  user: User;
  buttonVariant?: 'outline' | 'solid';
}) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | undefined>();
  const adjust = useAdjustWallet();

  const onOpenChange = (next: boolean) => {
    if (next) {
      setAmount('');
      setNotes('');
      setError(undefined);
    }
    setOpen(next);
  };

  const onSubmit = () => {
    const parsed = adjustmentSchema.safeParse({ amount: amount.trim(), notes: notes.trim() || QUICK_ADJUSTMENT_NOTE });
    if (!parsed.success || !/^[+-]?\d+$/.test(amount.trim())) {
      setError(parsed.success ? 'Amount must be a whole number' : parsed.error.issues[0].message);
      return;
    }
    setError(undefined);
    adjust.mutate(
      { userId: user.id, amount: parsed.data.amount, notes: parsed.data.notes },
      {
        onSuccess: ({ pendingNotice }) => {
          setOpen(false);
          notify(
            pendingNotice ?? {
              title: 'Wallet updated',
              description: `${user.name}'s wallet balance updated successfully.`,
            },
          );
        },
        onError: (err) =>
          notify({ title: 'Failed to update wallet', description: errorMessage(err), variant: 'destructive' }),
      },
    );
  };

  return (
    <>
      <Button size="sm" variant={buttonVariant} colorPalette="blue" onClick={() => onOpenChange(true)}>
        Quick Adjustment
      </Button>
      <FormDialog
        open={open}
        onOpenChange={onOpenChange}
        title="Quick Adjustment"
        description={`Current balance: ${formatRupees(user.wallet_balance)}. A positive amount adds funds, a negative amount removes them.`}
        submitLabel="Apply Adjustment"
        onSubmit={onSubmit}
        submitDisabled={amount.trim() === ''}
        pending={adjust.isPending}
      >
        <FormField label="Amount (₹)" error={error} helperText="e.g. 500 or -500">
          <Input inputMode="numeric" value={amount} onChange={(event) => setAmount(event.target.value)} />
        </FormField>
        <FormField label="Notes (optional)">
          <Textarea value={notes} maxLength={MAX_NOTES} onChange={(event) => setNotes(event.target.value)} />
        </FormField>
      </FormDialog>
    </>
  );
}
