/**
 * Before a player's first deposit, before the amount: would they like a deposit limit? 'Set limit' sets a
 * daily, weekly or monthly limit (at once, as on the protection screen); 'Not now' goes on to the deposit.
 * The server records the answer and stops asking (limit_prompt_due).
 */
import { Button, HStack, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { AmountInput } from '@/components/ui/amount-input.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { LimitPeriodSelect } from '@/components/limit-period-select.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type { depositLimitFormSchema } from '@/domain/protection-schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { useAnswerLimitPrompt } from '../api/answer-limit-prompt.ts';

const resolver = lazyZodResolver(() =>
  import('@/domain/protection-schemas.ts').then((schemas) => schemas.depositLimitFormSchema),
);

type FormInput = z.input<typeof depositLimitFormSchema>;
type FormOutput = z.output<typeof depositLimitFormSchema>;

export function LimitPrompt() {
  const answer = useAnswerLimitPrompt();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver,
    defaultValues: { period: 'daily', amount: '' },
  });
  const onError = (error: unknown) =>
    notify({ title: 'Failed to save your answer', description: errorMessage(error), variant: 'destructive' });

  const setLimit = handleSubmit(({ period, amount }) =>
    answer.mutate({ answer: 'set_limit', period, amount }, { onError }),
  );

  return (
    <FormStack onSubmit={setLimit} noValidate aria-label="Deposit limit before your first deposit">
      <Text fontWeight="semibold">Would you like to set a deposit limit before your first deposit?</Text>
      <Text fontSize="sm" color="fg.muted">
        A limit caps what you can deposit in 24 hours, 7 days or 30 days. You can change it later under Responsible
        gambling.
      </Text>
      <LimitPeriodSelect field={register('period')} />
      <FormField label="Limit (₹)" error={errors.amount?.message}>
        <AmountInput field={register('amount')} autoComplete="off" placeholder="Enter amount" />
      </FormField>
      <HStack gap="3">
        <Button
          type="submit"
          colorPalette="green"
          loading={answer.isPending && answer.variables?.answer === 'set_limit'}
        >
          Set limit
        </Button>
        <Button
          variant="outline"
          loading={answer.isPending && answer.variables?.answer === 'not_now'}
          disabled={answer.isPending}
          onClick={() => answer.mutate({ answer: 'not_now' }, { onError })}
        >
          Not now
        </Button>
      </HStack>
    </FormStack>
  );
}
