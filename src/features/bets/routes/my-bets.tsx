/**
 * /my-bets: all the user's bets with their match and team, a page at a time from the server
 * (Load More). A failed load shows the inline error and the destructive 'Error loading bets' toast.
 */
import { Container, Heading, Stack, Text } from '@chakra-ui/react';
import { LoadMoreButton } from '@/components/ui/load-more-button.tsx';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import { useBets } from '../api/get-bets.ts';
import { BETS_ERROR, BetList } from '../components/bet-list.tsx';

export function MyBetsRoute() {
  const bets = useBets();
  useErrorToast(bets.error, 'Error loading bets');
  return (
    <Container maxW="4xl" py="6">
      <Heading as="h1" size="2xl" mb="4">
        My Bets
      </Heading>
      {bets.isPending ? (
        <PageSpinner label="Loading bets" />
      ) : bets.isError ? (
        <Text color="red.700" role="alert">
          {BETS_ERROR}
        </Text>
      ) : (
        <Stack gap="4">
          <BetList bets={bets.items ?? []} />
          <LoadMoreButton list={bets} />
        </Stack>
      )}
    </Container>
  );
}
