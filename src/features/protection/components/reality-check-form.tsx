/** How often a reality check interrupts play: every 15, 30 or 60 minutes, or never. Applies at once. */
import { Button, NativeSelect, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { REALITY_CHECK_MINUTES } from '@/domain/protection.ts';
import type { RealityCheck, realityCheckFormSchema } from '@/domain/protection-schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { useSetRealityCheck } from '../api/reality-check.ts';

const resolver = lazyZodResolver(() =>
  import('@/domain/protection-schemas.ts').then((schemas) => schemas.realityCheckFormSchema),
);

type FormInput = z.input<typeof realityCheckFormSchema>;
type FormOutput = z.output<typeof realityCheckFormSchema>;

const label = (minutes: number | null) => (minutes === null ? 'Never' : `Every ${minutes} minutes`);

export function RealityCheckForm({ current }: { current: RealityCheck }) {
  const save = useSetRealityCheck();
  const { register, handleSubmit } = useForm<FormInput, unknown, FormOutput>({
    resolver,
    values: { interval: current.interval_minutes === null ? '' : String(current.interval_minutes) },
  });

  const onSubmit = handleSubmit(({ interval }) =>
    save.mutate(
      { interval_minutes: interval },
      {
        onSuccess: (answer) =>
          notify({ title: 'Reality checks saved', description: `${label(answer.interval_minutes)}.` }),
        onError: (error) =>
          notify({ title: 'Failed to save reality checks', description: errorMessage(error), variant: 'destructive' }),
      },
    ),
  );

  return (
    <FormStack onSubmit={onSubmit} noValidate gap="3" aria-label="Reality checks">
      <FormField label="Show me my time and results">
        <NativeSelect.Root>
          <NativeSelect.Field {...register('interval')}>
            {REALITY_CHECK_MINUTES.map((minutes) => (
              <option key={minutes} value={minutes}>
                {label(minutes)}
              </option>
            ))}
            <option value="">{label(null)}</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <Text fontSize="sm" color="fg.muted">
        A reminder of how long you have been playing and what you have won or lost since you started.
      </Text>
      <Button type="submit" alignSelf="flex-start" colorPalette="blue" loading={save.isPending}>
        Save reality checks
      </Button>
    </FormStack>
  );
}
