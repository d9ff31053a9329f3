/**
 * Time-out (1, 7, 30 or 42 days) and self-exclusion (6 months, 1 or 5 years). Both start at once and cannot
 * be undone, so each goes through a confirmation dialog that says so before anything is sent.
 */
import { Button, Dialog, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { formatDateTime } from '../../../domain/money.ts';
import {
  SELF_EXCLUSION_MONTHS, TIMEOUT_DAYS, activeExclusion, type SelfExclusionMonths, type TimeoutDays,
} from '../../../domain/protection.ts';
import type { AccountLimits } from '../../../domain/protection-schemas.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useSelfExclude, useTakeTimeout } from '../api/change-protection.ts';
import { lazyZodResolver } from '../../../lib/lazy-zod-resolver.ts';

const schemas = () => import('../../../domain/protection-schemas.ts');
const timeoutResolver = lazyZodResolver(() => schemas().then((loaded) => loaded.timeoutFormSchema));
const selfExclusionResolver = lazyZodResolver(() => schemas().then((loaded) => loaded.selfExclusionFormSchema));

interface Choice {
  value: number;
  label: string;
}

const TIMEOUT_CHOICES: Choice[] = TIMEOUT_DAYS.map((days) => ({ value: days, label: days === 1 ? '1 day' : `${days} days` }));
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
  send: (value: number, callbacks: { onSuccess: (limits: AccountLimits) => void; onError: (error: unknown) => void }) => void;
  pending: boolean;
}

interface ConfirmProps extends Pick<BreakFormProps, 'name' | 'title' | 'actionLabel' | 'pending'> {
  open: boolean;
  choice: Choice;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}

/** The last word before an exclusion that nobody can lift. */
function ConfirmBreakDialog({ open, onOpenChange, onConfirm, name, title, actionLabel, choice, pending }: ConfirmProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(details) => onOpenChange(details.open)} role="alertdialog" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{`${title} for ${choice.label}?`}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Dialog.Description color="fg">
                  {`For ${choice.label} from now you will not be able to bet or deposit. You can still sign in, see your history and withdraw, and bets you have already placed are settled as usual.`}
                </Dialog.Description>
                <Text fontWeight="semibold">{`This cannot be undone: nobody can shorten or lift the ${name}, not you and not our support team.`}</Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button colorPalette="red" loading={pending} onClick={onConfirm}>
                {actionLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function BreakForm({ name, title, choices, resolver, actionLabel, send, pending }: BreakFormProps) {
  const [confirming, setConfirming] = useState(false);
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
      onError: (error) => notify({ title: `Failed to start ${name}`, description: errorMessage(error), variant: 'destructive' }),
    }),
  );

  return (
    <FormStack onSubmit={handleSubmit(() => setConfirming(true))} noValidate gap="3" aria-label={title}>
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
      <ConfirmBreakDialog
        open={confirming} onOpenChange={setConfirming} onConfirm={() => void start()}
        name={name} title={title} actionLabel={actionLabel} choice={choice} pending={pending}
      />
    </FormStack>
  );
}

export function TimeoutForm() {
  const timeout = useTakeTimeout();
  return (
    <BreakForm
      name="time-out" title="Time-out" choices={TIMEOUT_CHOICES} resolver={timeoutResolver} actionLabel="Take a time-out"
      send={(days, callbacks) => timeout.mutate(days as TimeoutDays, callbacks)} pending={timeout.isPending}
    />
  );
}

export function SelfExclusionForm() {
  const exclude = useSelfExclude();
  return (
    <BreakForm
      name="self-exclusion" title="Self-exclusion" choices={EXCLUSION_CHOICES} resolver={selfExclusionResolver} actionLabel="Self-exclude"
      send={(months, callbacks) => exclude.mutate(months as SelfExclusionMonths, callbacks)} pending={exclude.isPending}
    />
  );
}
