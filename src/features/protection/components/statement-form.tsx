/** Download the ledger between two dates (both included) as a CSV statement. Starts at this month so far. */
import { Button, HStack, Input } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/form-field.tsx';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { statementRangeSchema } from '../../../domain/protection.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { downloadStatement } from '../api/download-statement.ts';

/** A local calendar day as YYYY-MM-DD (what a date input holds). */
function day(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function StatementForm({ today = new Date() }: { today?: Date }) {
  const [from, setFrom] = useState(day(new Date(today.getFullYear(), today.getMonth(), 1)));
  const [to, setTo] = useState(day(today));
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const range = statementRangeSchema.safeParse({ from, to });
    setError(range.success ? undefined : range.error.issues[0].message);
    if (!range.success) return;
    setPending(true);
    try {
      await downloadStatement(range.data);
    } catch (failure) {
      notify({ title: 'Download failed', description: errorMessage(failure), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Download a statement">
      <HStack gap="3" align="start" flexWrap={{ base: 'wrap', sm: 'nowrap' }}>
        <FormField label="From">
          <Input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        </FormField>
        <FormField label="To" error={error}>
          <Input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
        </FormField>
      </HStack>
      <Button type="submit" variant="outline" colorPalette="blue" alignSelf="start" loading={pending} loadingText="Preparing...">
        Download CSV
      </Button>
    </FormStack>
  );
}
