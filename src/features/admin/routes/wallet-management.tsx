/**
 * Back to User, 'Wallet Management' and the username; the balance card (Current Balance, User
 * Status coloured by status, User Role); the Adjust Balance form; the transaction history (or, when it failed
 * to load, 'Error loading transactions. Please try again later.'); 'User Not Found'.
 */
import { Box, Button, Card, DataList, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useParams } from 'react-router';
import { LoadMoreButton } from '../../../components/ui/load-more-button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { useErrorToast } from '../../../components/ui/use-error-toast.ts';
import { formatRupees } from '../../../domain/money.ts';
import { useAdminUser } from '../api/get-admin-user.ts';
import { useWalletTransactions } from '../api/get-wallet-transactions.ts';
import { AdjustmentForm } from '../components/adjustment-form.tsx';
import { LoadError } from '../components/load-error.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { UserTransactionsTable } from '../components/user-transactions-table.tsx';
import { adminPaths } from '../../../config/paths.ts';
import { capitalize } from '../lib/labels.ts';

export function WalletManagementRoute() {
  const id = Number(useParams().id);
  const { data: user, isPending, error } = useAdminUser(id);
  const transactions = useWalletTransactions(id);
  useErrorToast(error, 'Failed to fetch user');
  useErrorToast(transactions.error, 'Failed to fetch transactions');

  if (isPending && Number.isInteger(id) && id > 0) return <PageSpinner label="Loading user" />;
  if (!user) {
    return (
      <Card.Root maxW="md" mx="auto" mt="10">
        <Card.Body gap="3" textAlign="center">
          <Heading as="h1" size="xl">
            User Not Found
          </Heading>
          <Text color="fg.muted">The requested user could not be found.</Text>
          <Button asChild colorPalette="blue" alignSelf="center">
            <RouterLink to={adminPaths.users}>Back to Users</RouterLink>
          </Button>
        </Card.Body>
      </Card.Root>
    );
  }

  return (
    <Box>
      <Button asChild variant="ghost" size="sm" mb="2">
        <RouterLink to={adminPaths.user(user.id)}>← Back to User</RouterLink>
      </Button>
      <Heading as="h1" size="2xl">
        Wallet Management
      </Heading>
      <Text color="fg.muted" mb="6">
        {user.username}
      </Text>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start" mb="6">
        <Card.Root as="section" aria-label="Balance">
          <Card.Body>
            <DataList.Root orientation="horizontal">
              <DataList.Item>
                <DataList.ItemLabel>Current Balance</DataList.ItemLabel>
                <DataList.ItemValue fontSize="2xl" fontWeight="bold" data-testid="current-balance">
                  {formatRupees(user.wallet_balance)}
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>User Status</DataList.ItemLabel>
                <DataList.ItemValue>
                  <StatusBadge kind="user" value={user.status} />
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>User Role</DataList.ItemLabel>
                <DataList.ItemValue>{capitalize(user.role)}</DataList.ItemValue>
              </DataList.Item>
            </DataList.Root>
          </Card.Body>
        </Card.Root>
        <Card.Root as="section" aria-label="Adjust Balance">
          <Card.Header>
            <Heading size="md">Adjust Balance</Heading>
          </Card.Header>
          <Card.Body>
            <AdjustmentForm user={user} />
          </Card.Body>
        </Card.Root>
      </SimpleGrid>
      <Card.Root as="section" aria-label="Transaction History">
        <Card.Header>
          <Heading size="md">Transaction History</Heading>
        </Card.Header>
        <Card.Body>
          {transactions.isPending ? (
            <PageSpinner label="Loading transactions" />
          ) : transactions.isError ? (
            <LoadError what="transactions" />
          ) : (
            <Stack gap="3">
              <UserTransactionsTable transactions={transactions.items ?? []} emptyText="No transactions found for this user" label="Transaction history" />
              <LoadMoreButton list={transactions} />
            </Stack>
          )}
        </Card.Body>
      </Card.Root>
    </Box>
  );
}
