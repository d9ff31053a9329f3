/**
 * Adjust Balance: Credit or Debit, Amount (₹) 1–100,000, a reason of at most 200
 * characters; a debit is sent as a negative amount. 'Submit Adjustment', 'Processing...' while sending. A
 * large credit is not applied at once: it waits for a second admin, and the toast says so.
 */
import { Button, HStack, Input, RadioGroup, Textarea } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import type { User } from '../../../domain/entities.ts';
import { adjustmentFormSchema } from '../../../domain/schemas.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAdjustWallet } from '../api/adjust-wallet.ts';

const formSchema = adjustmentFormSchema.refine((form) => Number.isInteger(form.amount), {
  message: 'Amount must be a whole number of rupees',
  path: ['amount'],
});
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

export function AdjustmentForm({ user }: { user: Pick<User, 'id' | 'username'> }) {
  const adjust = useAdjustWallet();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { operation: 'credit', amount: '', notes: '' },
  });

  const onSubmit = handleSubmit((values) =>
    adjust.mutate(
      { userId: user.id, amount: values.operation === 'debit' ? -values.amount : values.amount, notes: values.notes },
      {
        onSuccess: ({ pendingNotice }) => {
          notify(
            pendingNotice ?? {
              title: 'Wallet updated successfully',
              description: `${user.username}'s wallet balance has been adjusted.`,
            },
          );
          reset({ operation: values.operation, amount: '', notes: '' });
        },
        onError: (error) =>
          notify({ title: 'Error updating wallet', description: errorMessage(error), variant: 'destructive' }),
      },
    ),
  );

  return (
    <FormStack gap="4" onSubmit={onSubmit} noValidate aria-label="Adjust balance">
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
      <FormField label="Amount (₹)" error={errors.amount?.message} helperText="Amount between ₹1 and ₹100,000">
        <Input inputMode="numeric" placeholder="Enter amount" {...register('amount')} />
      </FormField>
      <FormField label="Reason for adjustment" error={errors.notes?.message}>
        <Textarea placeholder="Explain why this adjustment is made" {...register('notes')} />
      </FormField>
      <Button type="submit" colorPalette="blue" disabled={adjust.isPending} alignSelf="start">
        {adjust.isPending ? 'Processing...' : 'Submit Adjustment'}
      </Button>
    </FormStack>
  );
}
