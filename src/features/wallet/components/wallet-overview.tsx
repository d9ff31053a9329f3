/** The home page's wallet overview: balance and the 3 latest transactions. */
import { Button, Card, Heading, Stack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { User } from '@/domain/entities.ts';
import { paths } from '@/config/paths.ts';
import { BalanceCard } from './balance-card.tsx';
import { TransactionList } from './transaction-list.tsx';

export function WalletOverview({ user }: { user: User }) {
  return (
    <Stack gap="4">
      <BalanceCard
        user={user}
        action={
          <Button asChild size="sm" variant="solid" bg="white" color="blue.800" _hover={{ bg: 'blue.50' }}>
            <RouterLink to={paths.wallet}>Open Wallet</RouterLink>
          </Button>
        }
      />
      <Card.Root>
        <Card.Header>
          <Heading as="h3" size="sm">
            Recent Transactions
          </Heading>
        </Card.Header>
        <Card.Body>
          <TransactionList />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
