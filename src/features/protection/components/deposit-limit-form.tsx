/**
 * Set or remove a deposit limit. Lower limits apply at once; raising or removing one applies after 24 hours
 * (the server decides; the toast repeats what it answered). The amount takes digits only.
 */
import { Button, HStack, Text } from '@chakra-ui/react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { AmountInput } from '@/components/ui/amount-input.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { formatDateTime, formatRupees } from '@/domain/money.ts';
import { LIMIT_RAISE_DELAY_HOURS, type LimitPeriod } from '@/domain/protection.ts';
import type { AccountLimits, DepositLimitInput, depositLimitFormSchema } from '@/domain/protection-schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useSetDepositLimit } from '../api/change-protection.ts';
import { LimitPeriodSelect } from '@/components/limit-period-select.tsx';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';

const resolver = lazyZodResolver(() =>
  import('@/domain/protection-schemas.ts').then((schemas) => schemas.depositLimitFormSchema),
);

/** The toast for the server's answer: the limit now in force, or the pending change and when it applies. */
function savedNotice(limits: AccountLimits, period: LimitPeriod) {
  const pending = limits.pending_changes.find((change) => change.period === period);
  if (pending) {
    const next =
      pending.amount === null ? `no ${period} limit` : `a ${period} limit of ${formatRupees(pending.amount)}`;
    return {
      title: 'Change requested',
      description: `You will have ${next} from ${formatDateTime(pending.effective_at)}.`,
    };
  }
  const amount = limits.deposit_limits[period];
  return {
    title: 'Deposit limit saved',
    description:
      amount === null ? `You have no ${period} limit.` : `Your ${period} limit is ${formatRupees(amount)} from now on.`,
  };
}

type FormInput = z.input<typeof depositLimitFormSchema>;

export function DepositLimitForm({ limits }: { limits: AccountLimits }) {
  const setLimit = useSetDepositLimit();
  const {
    register,
    handleSubmit,
    control,
    getValues,
    resetField,
    clearErrors,
    formState: { errors },
  } = useForm<FormInput, unknown, DepositLimitInput>({
    resolver,
    defaultValues: { period: 'daily', amount: '' },
  });
  const period = useWatch({ control, name: 'period' });

  const save = (input: DepositLimitInput) =>
    setLimit.mutate(input, {
      onSuccess: (answer) => {
        resetField('amount');
        notify(savedNotice(answer, input.period));
      },
      onError: (failure) =>
        notify({ title: 'Failed to save limit', description: errorMessage(failure), variant: 'destructive' }),
    });
  const removeLimit = () => {
    clearErrors('amount');
    save({ period: getValues('period'), amount: null });
  };

  return (
    <FormStack onSubmit={handleSubmit(save)} noValidate aria-label="Set a deposit limit">
      <LimitPeriodSelect field={register('period')} />
      <FormField label="Limit (₹)" error={errors.amount?.message}>
        <AmountInput field={register('amount')} autoComplete="off" placeholder="Enter amount" />
      </FormField>
      <Text fontSize="sm" color="fg.muted">
        A new or lower limit applies at once. Raising or removing a limit applies after {LIMIT_RAISE_DELAY_HOURS} hours.
      </Text>
      <HStack gap="2" flexWrap="wrap">
        <Button type="submit" colorPalette="blue" loading={setLimit.isPending} loadingText="Saving...">
          Set limit
        </Button>
        <Button
          variant="outline"
          disabled={limits.deposit_limits[period] === null || setLimit.isPending}
          onClick={removeLimit}
        >
          Remove limit
        </Button>
      </HStack>
    </FormStack>
  );
}
