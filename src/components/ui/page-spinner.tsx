import { Center, Spinner } from '@chakra-ui/react';

/** Spinner shown while a page's data (or the current user) loads. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="16" role="status" aria-label={label}>
      <Spinner size="lg" color="blue.600" />
    </Center>
  );
}
