/** The deposit limit's period (daily, weekly, monthly, each with its window) as a form's registered select. */
import { NativeSelect } from '@chakra-ui/react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { LIMIT_PERIODS } from '../domain/protection.ts';
import { periodLabel } from './protection-summary.tsx';
import { FormField } from './ui/form-field.tsx';

export function LimitPeriodSelect({ field }: { field: UseFormRegisterReturn<'period'> }) {
  return (
    <FormField label="Period">
      <NativeSelect.Root>
        <NativeSelect.Field {...field}>
          {LIMIT_PERIODS.map((value) => (
            <option key={value} value={value}>
              {periodLabel(value)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}
