/**
 * Header (name, status and role badges, Back), tabs Overview / Wallet & Transactions /
 * Betting History / Bank Accounts. Overview: User Information (Change Status), Wallet Balance (Manage
 * Wallet, Quick Adjustment), Contact User and Player Protection, read-only: the player's
 * deposit limits and time-out or self-exclusion, which no admin can change. A tab whose list failed to load
 * says so ('Error loading …. Please try again later.'); its empty text is only for a list that is really
 * empty. The tabs page through the server (Load More); the bet and transaction counts are the server's,
 * sent with the first pages.
 */
import { Box, Button, Card, Heading, HStack, Tabs } from '@chakra-ui/react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import type { User } from '@/domain/entities.ts';
import { adminPaths } from '@/config/paths.ts';
import { useAdminUser } from '../api/get-admin-user.ts';
import { useUserBankAccounts } from '../api/get-user-bank-accounts.ts';
import { useUserBets } from '../api/get-user-bets.ts';
import { useUserTransactions } from '@/features/admin/money/api/get-user-transactions.ts';
import { BankAccountCards } from '../components/bank-account-cards.tsx';
import { userBetColumns } from '@/features/admin/shared/components/bet-columns.tsx';
import { DataTable } from '@/components/ui/data-table.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedRows } from '@/components/ui/paged-rows.tsx';
import { QuickAdjustmentDialog } from '@/features/admin/money/components/quick-adjustment-dialog.tsx';
import { StatusBadge } from '@/features/admin/shared/components/status-badge.tsx';
import { UserLedger } from '@/features/admin/money/components/transaction-tables.tsx';
import { UserOverview } from '../components/user-overview.tsx';

function TransactionsCardHeader({ user }: { user: User }) {
  return (
    <Card.Header>
      <HStack justify="space-between" flexWrap="wrap" gap="2">
        <Heading size="md">Transactions</Heading>
        <HStack gap="2">
          <Button asChild size="sm" colorPalette="blue">
            <RouterLink to={adminPaths.userWallet(user.id)}>Full Wallet Management</RouterLink>
          </Button>
          <QuickAdjustmentDialog user={user} />
        </HStack>
      </HStack>
    </Card.Header>
  );
}

/** The user's three lists, read as soon as the page opens (beside the user itself). */
function useUserLists(id: number) {
  return { transactions: useUserTransactions(id), bets: useUserBets(id), bankAccounts: useUserBankAccounts(id) };
}

function UserTabs({
  user,
  lists: { transactions, bets, bankAccounts },
}: {
  user: User;
  lists: ReturnType<typeof useUserLists>;
}) {
  return (
    <Tabs.Root defaultValue="overview" lazyMount>
      <Tabs.List mb="4" flexWrap="wrap">
        <Tabs.Trigger value="overview">Overview</Tabs.Trigger>
        <Tabs.Trigger value="wallet">Wallet & Transactions</Tabs.Trigger>
        <Tabs.Trigger value="bets">Betting History</Tabs.Trigger>
        <Tabs.Trigger value="bank">Bank Accounts</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="overview">
        <UserOverview
          user={user}
          betCount={bets.total ?? undefined}
          transactionCount={transactions.total ?? undefined}
        />
      </Tabs.Content>
      <Tabs.Content value="wallet">
        <Card.Root>
          <TransactionsCardHeader user={user} />
          <Card.Body>
            <PagedRows list={transactions} what="transactions">
              {(rows) => (
                <UserLedger transactions={rows} label="Transactions" empty="No transactions found for this user." />
              )}
            </PagedRows>
          </Card.Body>
        </Card.Root>
      </Tabs.Content>
      <Tabs.Content value="bets">
        <Card.Root>
          <Card.Body>
            <PagedRows list={bets} what="bets">
              {(rows) => (
                <DataTable
                  label="Betting history"
                  rows={rows}
                  columns={userBetColumns}
                  empty="No bets found for this user."
                />
              )}
            </PagedRows>
          </Card.Body>
        </Card.Root>
      </Tabs.Content>
      <Tabs.Content value="bank">
        <PagedRows list={bankAccounts} what="bank accounts">
          {(accounts) => <BankAccountCards accounts={accounts} />}
        </PagedRows>
      </Tabs.Content>
    </Tabs.Root>
  );
}

export function UserDetailRoute() {
  const id = Number(useParams().id);
  const { data: user, isPending, error } = useAdminUser(id);
  const lists = useUserLists(id);
  useErrorToast(error, 'Failed to fetch user');
  useErrorToast(lists.transactions.error, 'Failed to fetch transactions');
  const back = (
    <Button asChild variant="ghost" size="sm" mb="2">
      <RouterLink to={adminPaths.users}>← Back</RouterLink>
    </Button>
  );
  if (isPending && Number.isInteger(id) && id > 0) return <PageSpinner label="Loading user" />;
  if (!user) {
    return (
      <Box>
        {back}
        <EmptyState title="User Not Found" description="The requested user could not be found." />
      </Box>
    );
  }
  return (
    <Box>
      {back}
      <HStack gap="3" mb="6" flexWrap="wrap">
        <Heading as="h1" size="2xl">
          {user.name}
        </Heading>
        <StatusBadge kind="user" value={user.status} />
        <StatusBadge kind="role" value={user.role} />
      </HStack>
      <UserTabs user={user} lists={lists} />
    </Box>
  );
}
