/**
 * Set or remove a deposit limit. Lower limits apply at once; raising or removing one applies after 24 hours
 * (the server decides; the toast repeats what it answered). The amount takes digits only.
 */
import { Button, HStack, Input, NativeSelect, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { formatDateTime, formatRupees } from '../../../domain/money.ts';
import {
  LIMIT_PERIODS, LIMIT_RAISE_DELAY_HOURS, depositLimitSchema, type AccountLimits, type LimitPeriod,
} from '../../../domain/protection.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { digitsOnly } from '../../../lib/digits-only.ts';
import { useSetDepositLimit } from '../api/change-protection.ts';
import { periodLabel } from '../../../components/protection-summary.tsx';

/** The toast for the server's answer: the limit now in force, or the pending change and when it applies. */
function savedNotice(limits: AccountLimits, period: LimitPeriod) {
  const pending = limits.pending_changes.find((change) => change.period === period);
  if (pending) {
    const next = pending.amount === null ? `no ${period} limit` : `a ${period} limit of ${formatRupees(pending.amount)}`;
    return { title: 'Change requested', description: `You will have ${next} from ${formatDateTime(pending.effective_at)}.` };
  }
  const amount = limits.deposit_limits[period];
  return {
    title: 'Deposit limit saved',
    description: amount === null ? `You have no ${period} limit.` : `Your ${period} limit is ${formatRupees(amount)} from now on.`,
  };
}

export function DepositLimitForm({ limits }: { limits: AccountLimits }) {
  const [period, setPeriod] = useState<LimitPeriod>('daily');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const setLimit = useSetDepositLimit();

  const save = (value: number | null) => {
    const parsed = depositLimitSchema.safeParse({ period, amount: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0].message);
      return;
    }
    setError(undefined);
    setLimit.mutate(parsed.data, {
      onSuccess: (answer) => {
        setAmount('');
        notify(savedNotice(answer, period));
      },
      onError: (failure) => notify({ title: 'Failed to save limit', description: errorMessage(failure), variant: 'destructive' }),
    });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save(amount === '' ? Number.NaN : Number(amount));
  };

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Set a deposit limit">
      <FormField label="Period">
        <NativeSelect.Root>
          <NativeSelect.Field value={period} onChange={(event) => setPeriod(event.target.value as LimitPeriod)}>
            {LIMIT_PERIODS.map((value) => (
              <option key={value} value={value}>
                {periodLabel(value)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <FormField label="Limit (₹)" error={error}>
        <Input
          value={amount}
          onChange={(event) => setAmount(digitsOnly(event.target.value))}
          inputMode="numeric"
          autoComplete="off"
          placeholder="Enter amount"
        />
      </FormField>
      <Text fontSize="sm" color="fg.muted">
        A new or lower limit applies at once. Raising or removing a limit applies after {LIMIT_RAISE_DELAY_HOURS} hours.
      </Text>
      <HStack gap="2" flexWrap="wrap">
        <Button type="submit" colorPalette="blue" loading={setLimit.isPending} loadingText="Saving...">
          Set limit
        </Button>
        <Button variant="outline" disabled={limits.deposit_limits[period] === null || setLimit.isPending} onClick={() => save(null)}>
          Remove limit
        </Button>
      </HStack>
    </FormStack>
  );
}
