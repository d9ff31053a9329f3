/**
 * Quick Adjustment: the adjustment form's quick shape (a signed amount, optional notes) in a dialog; Apply is
 * disabled while the amount is empty.
 */
import { Button } from '@chakra-ui/react';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type { User } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { AdjustmentFields, useAdjustmentForm } from './adjustment-form.tsx';

export function QuickAdjustmentDialog({
  user,
  buttonVariant = 'outline',
}: {
  user: User;
  buttonVariant?: 'outline' | 'solid';
}) {
  const [open, setOpen] = useState(false);
  const { form, submit, pending } = useAdjustmentForm({
    user,
    signed: true,
    failedTitle: 'Failed to update wallet',
    onAdjusted: ({ pendingNotice }) => {
      setOpen(false);
      notify(
        pendingNotice ?? {
          title: 'Wallet updated',
          description: `${user.name}'s wallet balance updated successfully.`,
        },
      );
    },
  });
  const amount = useWatch({ control: form.control, name: 'amount' });

  const onOpenChange = (next: boolean) => {
    if (next) form.reset();
    setOpen(next);
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
        onSubmit={submit}
        submitDisabled={String(amount).trim() === ''}
        pending={pending}
      >
        <AdjustmentFields control={form.control} register={form.register} errors={form.formState.errors} signed />
      </FormDialog>
    </>
  );
}
