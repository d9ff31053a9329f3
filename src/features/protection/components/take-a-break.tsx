/**
 * Time-out (1, 7, 30 or 42 days) and self-exclusion (6 months, 1 or 5 years). Both start at once and cannot
 * be undone, so each goes through a confirmation dialog that says so before anything is sent.
 */
import { Button, NativeSelect } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { deferredModule, useDeferredModule } from '@/components/ui/deferred-module.ts';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { formatDateTime } from '@/domain/money.ts';
import {
  SELF_EXCLUSION_MONTHS,
  TIMEOUT_DAYS,
  activeExclusion,
  type SelfExclusionMonths,
  type TimeoutDays,
} from '@/domain/protection.ts';
import type { AccountLimits } from '@/domain/protection-schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useSelfExclude, useTakeTimeout } from '../api/change-protection.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';

const schemas = () => import('@/domain/protection-schemas.ts');
const timeoutResolver = lazyZodResolver(() => schemas().then((loaded) => loaded.timeoutFormSchema));
const selfExclusionResolver = lazyZodResolver(() => schemas().then((loaded) => loaded.selfExclusionFormSchema));
const confirmDialog = deferredModule(() => import('./confirm-break-dialog.tsx'));

interface Choice {
  value: number;
  label: string;
}

const TIMEOUT_CHOICES: Choice[] = TIMEOUT_DAYS.map((days) => ({
  value: days,
  label: days === 1 ? '1 day' : `${days} days`,
}));
const EXCLUSION_CHOICES: Choice[] = SELF_EXCLUSION_MONTHS.map((months) => ({
  value: months,
  label: months % 12 === 0 ? `${months / 12} year${months === 12 ? '' : 's'}` : `${months} months`,
}));

interface BreakFormProps {
  /** 'time-out' or 'self-exclusion', as the texts name it */
  name: string;
  title: string;
  choices: Choice[];
  /** The field's rule (timeoutFormSchema or selfExclusionFormSchema). */
  resolver: Resolver<{ length: unknown }, unknown, { length: number }>;
  actionLabel: string;
  /** Sends the chosen length (one of `choices`). */
  send: (
    value: number,
    callbacks: { onSuccess: (limits: AccountLimits) => void; onError: (error: unknown) => void },
  ) => void;
  pending: boolean;
}

function BreakForm({ name, title, choices, resolver, actionLabel, send, pending }: BreakFormProps) {
  const [confirming, setConfirming] = useState(false);
  const dialog = useDeferredModule(confirmDialog);
  const { register, handleSubmit, control } = useForm<{ length: unknown }, unknown, { length: number }>({
    resolver,
    defaultValues: { length: String(choices[0].value) },
  });
  const length = useWatch({ control, name: 'length' });
  const choice = choices.find((option) => String(option.value) === String(length)) ?? choices[0];

  const start = handleSubmit((values) =>
    send(values.length, {
      onSuccess: (limits) => {
        setConfirming(false);
        const exclusion = activeExclusion(limits);
        notify({
          title: `${title} started`,
          description: exclusion ? `You cannot bet or deposit until ${formatDateTime(exclusion.until)}.` : undefined,
        });
      },
      onError: (error) =>
        notify({ title: `Failed to start ${name}`, description: errorMessage(error), variant: 'destructive' }),
    }),
  );

  const ask = () => {
    confirmDialog.load(); // at once if it has not arrived yet
    setConfirming(true);
  };

  return (
    <FormStack onSubmit={handleSubmit(ask)} noValidate gap="3" aria-label={title}>
      <FormField label={`Length of the ${name}`}>
        <NativeSelect.Root>
          <NativeSelect.Field {...register('length')}>
            {choices.map((option) => (
              <option key={option.value} value={String(option.value)}>
                {option.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <Button type="submit" colorPalette="red" variant="outline" alignSelf="start">
        {actionLabel}
      </Button>
      {dialog && (
        <dialog.ConfirmBreakDialog
          open={confirming}
          onOpenChange={setConfirming}
          onConfirm={() => void start()}
          name={name}
          title={title}
          actionLabel={actionLabel}
          length={choice.label}
          pending={pending}
        />
      )}
    </FormStack>
  );
}

export function TimeoutForm() {
  const timeout = useTakeTimeout();
  return (
    <BreakForm
      name="time-out"
      title="Time-out"
      choices={TIMEOUT_CHOICES}
      resolver={timeoutResolver}
      actionLabel="Take a time-out"
      send={(days, callbacks) => timeout.mutate(days as TimeoutDays, callbacks)}
      pending={timeout.isPending}
    />
  );
}

export function SelfExclusionForm() {
  const exclude = useSelfExclude();
  return (
    <BreakForm
      name="self-exclusion"
      title="Self-exclusion"
      choices={EXCLUSION_CHOICES}
      resolver={selfExclusionResolver}
      actionLabel="Self-exclude"
      send={(months, callbacks) => exclude.mutate(months as SelfExclusionMonths, callbacks)}
      pending={exclude.isPending}
    />
  );
}
