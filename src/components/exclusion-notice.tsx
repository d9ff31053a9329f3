/** Why betting and deposits are closed and until when: shown by the bet slip, the deposit form and the page. */
import { Alert } from '@chakra-ui/react';
import { useId } from 'react';
import { formatDateTime } from '../domain/money.ts';
import type { Exclusion } from '../domain/protection.ts';

export function ExclusionNotice({ exclusion }: { exclusion: Exclusion }) {
  const titleId = useId();
  return (
    <Alert.Root status="warning" role="status" aria-labelledby={titleId}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title id={titleId}>{exclusion.kind === 'timeout' ? 'Time-out' : 'Self-exclusion'}</Alert.Title>
        <Alert.Description>You cannot bet or deposit until {formatDateTime(exclusion.until)}.</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
