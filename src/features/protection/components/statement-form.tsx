/** Download the ledger between two dates (both included) as a CSV statement. Starts at this month so far. */
import { Button, HStack, Input } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type { statementRangeSchema } from '@/domain/protection-schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { downloadStatement } from '../api/download-statement.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';

const resolver = lazyZodResolver(() =>
  import('@/domain/protection-schemas.ts').then((schemas) => schemas.statementRangeSchema),
);

/** A local calendar day as YYYY-MM-DD (what a date input holds). */
function day(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

type Range = z.infer<typeof statementRangeSchema>;

export function StatementForm({ today = new Date() }: { today?: Date }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Range>({
    resolver,
    defaultValues: { from: day(new Date(today.getFullYear(), today.getMonth(), 1)), to: day(today) },
  });

  const onSubmit = handleSubmit(async (range) => {
    try {
      await downloadStatement(range);
    } catch (failure) {
      notify({ title: 'Download failed', description: errorMessage(failure), variant: 'destructive' });
    }
  });

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Download a statement">
      <HStack gap="3" align="start" flexWrap={{ base: 'wrap', sm: 'nowrap' }}>
        <FormField label="From">
          <Input type="date" {...register('from')} />
        </FormField>
        {/* One message for the range, under its end. */}
        <FormField label="To" error={(errors.from ?? errors.to)?.message}>
          <Input type="date" {...register('to')} />
        </FormField>
      </HStack>
      <Button
        type="submit"
        variant="outline"
        colorPalette="blue"
        alignSelf="start"
        loading={isSubmitting}
        loadingText="Preparing..."
      >
        Download CSV
      </Button>
    </FormStack>
  );
}
