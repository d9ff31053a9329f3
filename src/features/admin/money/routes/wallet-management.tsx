/**
 * Back to User, 'Wallet Management' and the username; the balance card (Current Balance, User
 * Status coloured by status, User Role); the Adjust Balance form; the transaction history (or, when it failed
 * to load, 'Error loading transactions. Please try again later.'); 'User Not Found'.
 */
import { Box, Button, Card, DataList, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import type { User } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { useAdminUser } from '@/features/admin/users/api/get-admin-user.ts';
import { useWalletTransactions } from '../api/get-wallet-transactions.ts';
import { AdjustmentForm } from '../components/adjustment-form.tsx';
import { InfoItem } from '@/features/admin/shared/components/info-item.tsx';
import { PagedRows } from '@/components/ui/paged-rows.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { StatusBadge } from '@/features/admin/shared/components/status-badge.tsx';
import { UserLedger } from '../components/transaction-tables.tsx';
import { adminPaths } from '@/config/paths.ts';
import { capitalize } from '@/features/admin/shared/lib/labels.ts';

function UserNotFound() {
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

function BalanceCard({ user }: { user: User }) {
  return (
    <Card.Root as="section" aria-label="Balance">
      <Card.Body>
        <DataList.Root orientation="horizontal">
          <InfoItem label="Current Balance" fontSize="2xl" fontWeight="bold" data-testid="current-balance">
            {formatRupees(user.wallet_balance)}
          </InfoItem>
          <InfoItem label="User Status">
            <StatusBadge kind="user" value={user.status} />
          </InfoItem>
          <InfoItem label="User Role">{capitalize(user.role)}</InfoItem>
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  );
}

export function WalletManagementRoute() {
  const id = Number(useParams().id);
  const { data: user, isPending, error } = useAdminUser(id);
  const transactions = useWalletTransactions(id);
  useErrorToast(error, 'Failed to fetch user');
  useErrorToast(transactions.error, 'Failed to fetch transactions');

  if (isPending && Number.isInteger(id) && id > 0) return <PageSpinner label="Loading user" />;
  if (!user) return <UserNotFound />;
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
        <BalanceCard user={user} />
        <SectionCard title="Adjust Balance">
          <AdjustmentForm user={user} />
        </SectionCard>
      </SimpleGrid>
      <SectionCard title="Transaction History">
        <PagedRows list={transactions} what="transactions">
          {(rows) => (
            <UserLedger transactions={rows} label="Transaction history" empty="No transactions found for this user" />
          )}
        </PagedRows>
      </SectionCard>
    </Box>
  );
}
