/**
 * The wallet adjustment, one form in two shapes, both sent as a signed amount with notes:
 * - Adjust Balance (the wallet page): Credit or Debit, Amount (₹) 1–100,000 and a reason of at most 200
 *   characters; a debit is sent as a negative amount. 'Submit Adjustment', 'Processing...' while sending.
 * - Quick Adjustment (a dialog, quick-adjustment-dialog.tsx): a signed amount (positive adds, negative removes)
 *   and optional notes; the API needs a reason, so empty notes send a default.
 * A large credit is not applied at once: it waits for a second admin, and the toast says so.
 */
import { Button, HStack, Input, RadioGroup, Textarea } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type { User } from '@/domain/entities.ts';
import { MAX_NOTES } from '@/domain/limits.ts';
import { adjustmentFormSchema, adjustmentSchema } from '@/domain/schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useAdjustWallet, type AdjustWalletResult } from '../api/adjust-wallet.ts';

export const QUICK_ADJUSTMENT_NOTE = 'Quick adjustment';

/** What both shapes send: a signed whole number of rupees and the notes. */
type Adjustment = z.output<typeof adjustmentSchema>;

const operationSchema = adjustmentFormSchema
  .refine((form) => Number.isInteger(form.amount), {
    message: 'Amount must be a whole number of rupees',
    path: ['amount'],
  })
  .transform(({ operation, amount, notes }) => ({ amount: operation === 'debit' ? -amount : amount, notes }));

/** The API's amount rule over the typed text (its coercion takes any input, which `pipe` cannot type). */
const signedAmount = adjustmentSchema.shape.amount as unknown as z.ZodType<number, string>;

const signedSchema = z
  .object({
    // the form's operation field, which the quick shape does not show: the amount's sign says it
    operation: adjustmentFormSchema.shape.operation,
    amount: z
      .string()
      .trim()
      .regex(/^[+-]?\d+$/, 'Amount must be a whole number')
      .pipe(signedAmount),
    notes: z
      .string()
      .trim()
      .transform((notes) => notes || QUICK_ADJUSTMENT_NOTE)
      .pipe(adjustmentSchema.shape.notes),
  })
  .transform(({ amount, notes }) => ({ amount, notes }));

type FormValues = z.input<typeof operationSchema>;

interface AdjustmentOptions {
  user: Pick<User, 'id'>;
  /** the quick shape: a signed amount and optional notes */
  signed?: boolean;
  onAdjusted: (result: AdjustWalletResult) => void;
  /** the toast's title when the server refuses */
  failedTitle: string;
}

/** The form's state and its submit handler; render its fields with AdjustmentFields. */
export function useAdjustmentForm({ user, signed = false, onAdjusted, failedTitle }: AdjustmentOptions) {
  const adjust = useAdjustWallet();
  const form = useForm<FormValues, unknown, Adjustment>({
    resolver: zodResolver<FormValues, unknown, Adjustment>(signed ? signedSchema : operationSchema),
    defaultValues: { operation: 'credit', amount: '', notes: '' },
  });
  const submit = form.handleSubmit((values) =>
    adjust.mutate(
      { userId: user.id, ...values },
      {
        onSuccess: (result) => {
          onAdjusted(result);
          form.reset({ operation: form.getValues('operation'), amount: '', notes: '' });
        },
        onError: (error) => notify({ title: failedTitle, description: errorMessage(error), variant: 'destructive' }),
      },
    ),
  );
  return { form, submit, pending: adjust.isPending };
}

/** The adjustment's fields: the operation (not in the quick shape), the amount and the notes. */
export function AdjustmentFields({
  control,
  register,
  errors,
  signed = false,
}: {
  control: Control<FormValues, unknown, Adjustment>;
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<FormValues>;
  signed?: boolean;
}) {
  return (
    <>
      {!signed && (
        <FormField label="Operation" error={errors.operation?.message}>
          <Controller
            control={control}
            name="operation"
            render={({ field }) => (
              <RadioGroup.Root
                name={field.name}
                value={field.value}
                onValueChange={(details) => field.onChange(details.value)}
                aria-label="Operation"
              >
                <HStack gap="6">
                  <RadioGroup.Item value="credit">
                    <RadioGroup.ItemHiddenInput onBlur={field.onBlur} />
                    <RadioGroup.ItemIndicator />
                    <RadioGroup.ItemText>Credit</RadioGroup.ItemText>
                  </RadioGroup.Item>
                  <RadioGroup.Item value="debit">
                    <RadioGroup.ItemHiddenInput onBlur={field.onBlur} />
                    <RadioGroup.ItemIndicator />
                    <RadioGroup.ItemText>Debit</RadioGroup.ItemText>
                  </RadioGroup.Item>
                </HStack>
              </RadioGroup.Root>
            )}
          />
        </FormField>
      )}
      <FormField
        label="Amount (₹)"
        error={errors.amount?.message}
        helperText={signed ? 'e.g. 500 or -500' : 'Amount between ₹1 and ₹100,000'}
      >
        <Input inputMode="numeric" placeholder={signed ? undefined : 'Enter amount'} {...register('amount')} />
      </FormField>
      <FormField label={signed ? 'Notes (optional)' : 'Reason for adjustment'} error={errors.notes?.message}>
        <Textarea
          placeholder={signed ? undefined : 'Explain why this adjustment is made'}
          maxLength={signed ? MAX_NOTES : undefined}
          {...register('notes')}
        />
      </FormField>
    </>
  );
}

/** Adjust Balance, the wallet page's form. */
export function AdjustmentForm({ user }: { user: Pick<User, 'id' | 'username'> }) {
  const { form, submit, pending } = useAdjustmentForm({
    user,
    failedTitle: 'Error updating wallet',
    onAdjusted: ({ pendingNotice }) =>
      notify(
        pendingNotice ?? {
          title: 'Wallet updated successfully',
          description: `${user.username}'s wallet balance has been adjusted.`,
        },
      ),
  });
  return (
    <FormStack gap="4" onSubmit={submit} noValidate aria-label="Adjust balance">
      <AdjustmentFields control={form.control} register={form.register} errors={form.formState.errors} />
      <Button type="submit" colorPalette="blue" disabled={pending} alignSelf="start">
        {pending ? 'Processing...' : 'Submit Adjustment'}
      </Button>
    </FormStack>
  );
}
