/**
 * Deposit (spec §2.6, §4): amount with quick amounts, UPI as the only method, default ₹1,000. A pending
 * deposit is created, then the browser goes to the payment gateway after 1.5 s. The amount takes digits
 * only, as typed.
 */
import { Button, HStack, Input, NativeSelect , Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DEFAULT_DEPOSIT, DEPOSIT_QUICK_AMOUNTS } from '../../../domain/limits.ts';
import { formatRupees } from '../../../domain/money.ts';
import { depositSchema } from '../../../domain/schemas.ts';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { digitsOnlyChange } from '../../../lib/digits-only.ts';
import { createDepositReference, useCreateDeposit } from '../api/create-deposit.ts';

export const GATEWAY_REDIRECT_MS = 1500;

const depositFormSchema = depositSchema.omit({ reference: true });
type DepositFormInput = z.input<typeof depositFormSchema>;
type DepositFormOutput = z.output<typeof depositFormSchema>;

export interface DepositFormProps {
  /** Where the browser goes (defaults to a full navigation); replaceable in tests. */
  redirect?: (url: string) => void;
  onCreated?: () => void;
}

const assignLocation = (url: string) => window.location.assign(url);

export function DepositForm({ redirect = assignLocation, onCreated }: DepositFormProps) {
  const deposit = useCreateDeposit();
  const [gatewayUrl, setGatewayUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!gatewayUrl) return;
    const timer = setTimeout(() => redirect(gatewayUrl), GATEWAY_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [gatewayUrl, redirect]);
  const { register, handleSubmit, setValue, formState: { errors } } = useForm<DepositFormInput, unknown, DepositFormOutput>({
    resolver: zodResolver(depositFormSchema),
    defaultValues: { amount: String(DEFAULT_DEPOSIT), paymentMethod: 'upi' },
  });
  const amountField = register('amount');

  const onSubmit = handleSubmit(({ amount, paymentMethod }) => {
    const reference = createDepositReference();
    deposit.mutate(
      { amount, paymentMethod, reference },
      {
        onSuccess: (transaction) => {
          const ref = transaction.reference_id ?? reference;
          notify({ title: 'Deposit request created', description: `Reference #${ref}. Awaiting confirmation.` });
          onCreated?.();
          if (transaction.redirect_url) setGatewayUrl(transaction.redirect_url);
        },
        onError: (error) => notify({ title: 'Request failed', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  });

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Deposit funds">
      <FormField label="Amount (₹)" error={errors.amount?.message}>
        <Input {...amountField} onChange={digitsOnlyChange(amountField.onChange)} inputMode="numeric" autoComplete="off" />
      </FormField>
      <HStack gap="2" wrap="wrap" role="group" aria-label="Quick amounts">
        {DEPOSIT_QUICK_AMOUNTS.map((value) => (
          <Button
            key={value}
            size="sm"
            variant="outline"
            onClick={() => setValue('amount', String(value), { shouldValidate: true })}
          >
            {formatRupees(value)}
          </Button>
        ))}
      </HStack>
      <FormField label="Payment Method" error={errors.paymentMethod?.message}>
        <NativeSelect.Root>
          <NativeSelect.Field {...register('paymentMethod')}>
            <option value="upi">UPI</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <Text fontSize="sm" color="fg.muted">
        You will be redirected to the payment gateway to complete the payment.
      </Text>
      <Button type="submit" colorPalette="green" loading={deposit.isPending} loadingText="Creating request...">
        Proceed to Pay
      </Button>
    </FormStack>
  );
}
