/**
 * Deposit: amount with quick amounts, UPI as the only method, default ₹1,000. A pending
 * deposit is created, then the browser goes to the payment gateway after 1.5 s (useCreateDeposit, which
 * does so even when this form is gone by then). The amount takes digits only, as typed. The player's deposit
 * limits show what may still be deposited; during a time-out or self-exclusion the form says so and until
 * when, and does not send. Before the first deposit the player is asked about a deposit limit first
 * (LimitPrompt): the form waits for the player's protection so the question comes before the amount.
 */
import { Button, HStack, NativeSelect, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DEFAULT_DEPOSIT, DEPOSIT_QUICK_AMOUNTS } from '@/domain/limits.ts';
import { formatRupees } from '@/domain/money.ts';
import type { depositFormSchema } from '@/domain/schemas.ts';
import { activeExclusion, tightestLimit } from '@/domain/protection.ts';
import type { AccountLimits } from '@/domain/protection-schemas.ts';
import { AmountInput } from '@/components/ui/amount-input.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { useAccountLimits } from '@/lib/account-limits.ts';
import { ExclusionNotice } from '@/components/exclusion-notice.tsx';
import { createDepositReference, useCreateDeposit } from '../api/create-deposit.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { LimitPrompt } from './limit-prompt.tsx';
import { OfflineHint } from '@/components/ui/offline.tsx';
import { useOnline } from '@/lib/use-online.ts';

const resolver = lazyZodResolver(() => import('@/domain/schemas.ts').then((schemas) => schemas.depositFormSchema));

type DepositFormInput = z.input<typeof depositFormSchema>;
type DepositFormOutput = z.output<typeof depositFormSchema>;

export function DepositForm() {
  const protection = useAccountLimits();
  // offline the read waits for the network (paused): the form shows, its button disabled
  if (protection.isPending && protection.fetchStatus === 'fetching') return <PageSpinner label="Loading your limits" />;
  if (protection.data?.limit_prompt_due) return <LimitPrompt />;
  return <DepositAmountForm limits={protection.data} />;
}

function DepositAmountForm({ limits }: { limits: AccountLimits | undefined }) {
  const deposit = useCreateDeposit();
  const online = useOnline();
  const exclusion = activeExclusion(limits);
  const limit = tightestLimit(limits);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<DepositFormInput, unknown, DepositFormOutput>({
    resolver,
    defaultValues: { amount: String(DEFAULT_DEPOSIT), paymentMethod: 'upi' },
  });

  const onSubmit = handleSubmit(({ amount, paymentMethod }) => {
    deposit.mutate({ amount, paymentMethod, reference: createDepositReference() });
  });

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Deposit funds">
      {exclusion && <ExclusionNotice exclusion={exclusion} />}
      <FormField label="Amount (₹)" error={errors.amount?.message}>
        <AmountInput field={register('amount')} autoComplete="off" />
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
      {limit && (
        <Text fontSize="sm" data-testid="deposit-limit">
          {`You can deposit ${formatRupees(limit.remaining)} more under your ${limit.period} limit of ${formatRupees(limit.amount)}.`}
        </Text>
      )}
      <Text fontSize="sm" color="fg.muted">
        You will be redirected to the payment gateway to complete the payment.
      </Text>
      <Button
        type="submit"
        colorPalette="green"
        loading={deposit.isPending}
        loadingText="Creating request..."
        disabled={exclusion !== null || !online}
      >
        Proceed to Pay
      </Button>
      <OfflineHint />
    </FormStack>
  );
}
