/** Match Date & Time: a calendar for the day (choosing one keeps the time of day) and a time input. */
import { DatePicker, HStack, Input, Stack, chakra, parseDate } from '@chakra-ui/react';
import { Controller, type Control, type UseFormRegister } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field.tsx';
import type { CreateMatchValues } from '../lib/create-match-form.ts';

function DayCalendar({ value, onChange }: { value: string; onChange: (day: string) => void }) {
  return (
    <DatePicker.Root
      inline
      value={value ? [parseDate(value)] : []}
      onValueChange={(details) => onChange(details.value[0]?.toString() ?? '')}
      aria-label="Match date"
    >
      <DatePicker.Content>
        <DatePicker.View view="day">
          <DatePicker.Header />
          <DatePicker.DayTable />
        </DatePicker.View>
        <DatePicker.View view="month">
          <DatePicker.Header />
          <DatePicker.MonthTable />
        </DatePicker.View>
        <DatePicker.View view="year">
          <DatePicker.Header />
          <DatePicker.YearTable />
        </DatePicker.View>
      </DatePicker.Content>
    </DatePicker.Root>
  );
}

interface MatchDateTimeFieldProps {
  control: Control<CreateMatchValues>;
  register: UseFormRegister<CreateMatchValues>;
  error?: string;
}

export function MatchDateTimeField({ control, register, error }: MatchDateTimeFieldProps) {
  return (
    <FormField label="Match Date & Time" error={error}>
      <Stack gap="3" align="start">
        <Controller
          control={control}
          name="date"
          render={({ field }) => <DayCalendar value={field.value} onChange={field.onChange} />}
        />
        <HStack>
          <chakra.label htmlFor="match-time" fontSize="sm" color="fg.muted">
            Time
          </chakra.label>
          <Input id="match-time" type="time" w="40" {...register('time')} />
        </HStack>
      </Stack>
    </FormField>
  );
}
