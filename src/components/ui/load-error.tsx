import { Text } from '@chakra-ui/react';

/**
 * A list that failed to load, in the app's one wording ('Error loading bets. Please try again later.'): shown
 * instead of the list's empty text, which would claim there is nothing.
 */
export function LoadError({ what }: { what: string }) {
  return (
    <Text color="fg.error" role="alert">
      {`Error loading ${what}. Please try again later.`}
    </Text>
  );
}
