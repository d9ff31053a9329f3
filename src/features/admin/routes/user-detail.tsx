/**
 * Header (name, status and role badges, Back), tabs Overview / Wallet & Transactions /
 * Betting History / Bank Accounts. Overview: User Information (Change Status), Wallet Balance (Manage
 * Wallet, Quick Adjustment), Contact User and (beyond the spec) Player Protection, read-only: the player's
 * deposit limits and time-out or self-exclusion, which no admin can change. A tab whose list failed to load
 * says so ('Error loading …. Please try again later.'); its empty text is only for a list that is really
 * empty. The tabs page through the server (Load More); the bet and transaction counts are the server's,
 * sent with the first pages.
 */
import { Badge, Box, Button, Card, DataList, Heading, HStack, SimpleGrid, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { Link as RouterLink, useParams } from 'react-router';
import { LoadMoreButton } from '../../../components/ui/load-more-button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { useErrorToast } from '../../../components/ui/use-error-toast.ts';
import type { BankAccount, Bet, User } from '../../../domain/entities.ts';
import { formatDateTime, formatRupees } from '../../../domain/money.ts';
import { useAdminUser } from '../api/get-admin-user.ts';
import { useUserBankAccounts } from '../api/get-user-bank-accounts.ts';
import { useUserBets } from '../api/get-user-bets.ts';
import { useUserTransactions } from '../api/get-user-transactions.ts';
import { ChangeStatusDialog } from '../components/change-status-dialog.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { LoadError } from '../components/load-error.tsx';
import { QuickAdjustmentDialog } from '../components/quick-adjustment-dialog.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { UserTransactionsTable } from '../components/user-transactions-table.tsx';
import { adminPaths } from '../../../config/paths.ts';
import { useAccountLimits } from '../../../lib/account-limits.ts';
import { DepositLimitList, ExclusionList } from '../../../components/protection-summary.tsx';

function Info({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}

/** What the player set for themself: shown, never editable here (only the player may change it). */
function PlayerProtection({ userId }: { userId: number }) {
  const limits = useAccountLimits({ userId });
  return (
    <Card.Root as="section" aria-label="Player Protection">
      <Card.Header>
        <Heading size="md">Player Protection</Heading>
        <Text fontSize="sm" color="fg.muted">
          Set by the player. Admins cannot change or lift these.
        </Text>
      </Card.Header>
      <Card.Body gap="4">
        {limits.isPending ? (
          <PageSpinner label="Loading limits" />
        ) : limits.isError ? (
          <LoadError what="limits" />
        ) : (
          <>
            <DepositLimitList limits={limits.data} />
            <ExclusionList limits={limits.data} />
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function Overview({ user, betCount, transactionCount }: { user: User; betCount?: number; transactionCount?: number }) {
  const hasContact = Boolean(user.email || user.phone);
  return (
    <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" alignItems="start">
      <Card.Root as="section" aria-label="User Information">
        <Card.Header>
          <HStack justify="space-between">
            <Heading size="md">User Information</Heading>
            <ChangeStatusDialog user={user} />
          </HStack>
        </Card.Header>
        <Card.Body>
          <DataList.Root orientation="horizontal" size="sm">
            <Info label="ID">{user.id}</Info>
            <Info label="Username">{user.username}</Info>
            <Info label="Name">{user.name}</Info>
            <Info label="Email">{user.email || '-'}</Info>
            <Info label="Phone">{user.phone || '-'}</Info>
            <Info label="Referral Code">{user.referral_code}</Info>
            {user.referred_by !== null && <Info label="Referred By">User #{user.referred_by}</Info>}
          </DataList.Root>
        </Card.Body>
      </Card.Root>
      <Card.Root as="section" aria-label="Wallet Balance">
        <Card.Header>
          <Heading size="md">Wallet Balance</Heading>
        </Card.Header>
        <Card.Body gap="4">
          <Text fontSize="3xl" fontWeight="bold" data-testid="user-balance">
            {formatRupees(user.wallet_balance)}
          </Text>
          <DataList.Root orientation="horizontal" size="sm">
            <Info label="Total Bets">{betCount ?? '…'}</Info>
            <Info label="Transactions">{transactionCount ?? '…'}</Info>
          </DataList.Root>
          <HStack gap="2" flexWrap="wrap">
            <Button asChild size="sm" colorPalette="blue">
              <RouterLink to={adminPaths.userWallet(user.id)}>Manage Wallet</RouterLink>
            </Button>
            <QuickAdjustmentDialog user={user} />
          </HStack>
        </Card.Body>
      </Card.Root>
      <Card.Root as="section" aria-label="Contact User">
        <Card.Header>
          <Heading size="md">Contact User</Heading>
        </Card.Header>
        <Card.Body gap="3">
          {hasContact ? (
            <Stack gap="1">
              {user.email && <Text>{user.email}</Text>}
              {user.phone && <Text>{user.phone}</Text>}
            </Stack>
          ) : (
            <Text color="fg.muted">No contact information available</Text>
          )}
          <Button size="sm" variant="outline" disabled={!user.email} alignSelf="start">
            Send Email
          </Button>
        </Card.Body>
      </Card.Root>
      <PlayerProtection userId={user.id} />
    </SimpleGrid>
  );
}

/** The Bets tab; the Team column shows the bet's team short name or 'Team {id}'. */
function BetsTable({ bets }: { bets: readonly Bet[] }) {
  if (bets.length === 0) return <Text color="fg.muted">No bets found for this user.</Text>;
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" aria-label="Betting history">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>ID</Table.ColumnHeader>
            <Table.ColumnHeader>Match</Table.ColumnHeader>
            <Table.ColumnHeader>Team</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Odds</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Potential Win</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Date</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {bets.map((bet) => (
            <Table.Row key={bet.id}>
              <Table.Cell>{bet.id}</Table.Cell>
              <Table.Cell>
                <RouterLink to={adminPaths.match(bet.match_id)}>#{bet.match_id}</RouterLink>
              </Table.Cell>
              <Table.Cell>{bet.team?.short_name ?? `Team ${bet.team_id}`}</Table.Cell>
              <Table.Cell textAlign="end">{formatRupees(bet.amount)}</Table.Cell>
              <Table.Cell textAlign="end">{bet.odds}x</Table.Cell>
              <Table.Cell textAlign="end">{formatRupees(bet.potential_win)}</Table.Cell>
              <Table.Cell>
                <StatusBadge kind="bet" value={bet.status} />
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDateTime(bet.created_at)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function BankAccounts({ accounts }: { accounts: readonly BankAccount[] }) {
  if (accounts.length === 0) return <Text color="fg.muted">No bank accounts registered by this user.</Text>;
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
      {accounts.map((account) => (
        <Card.Root key={account.id} size="sm">
          <Card.Body gap="1">
            <HStack justify="space-between">
              <Text fontWeight="bold">{account.bank_name}</Text>
              <Badge colorPalette={account.is_active ? 'green' : 'gray'}>{account.is_active ? 'Active' : 'Inactive'}</Badge>
            </HStack>
            <Text>{account.account_holder}</Text>
            <Text fontFamily="mono">{account.account_number}</Text>
            <Text fontFamily="mono" color="fg.muted">
              {account.ifsc_code}
            </Text>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}

export function UserDetailRoute() {
  const id = Number(useParams().id);
  const { data: user, isPending, error } = useAdminUser(id);
  const transactions = useUserTransactions(id);
  const bets = useUserBets(id);
  const bankAccounts = useUserBankAccounts(id);
  useErrorToast(error, 'Failed to fetch user');
  useErrorToast(transactions.error, 'Failed to fetch transactions');

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
      <Tabs.Root defaultValue="overview" lazyMount>
        <Tabs.List mb="4" flexWrap="wrap">
          <Tabs.Trigger value="overview">Overview</Tabs.Trigger>
          <Tabs.Trigger value="wallet">Wallet & Transactions</Tabs.Trigger>
          <Tabs.Trigger value="bets">Betting History</Tabs.Trigger>
          <Tabs.Trigger value="bank">Bank Accounts</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview">
          <Overview user={user} betCount={bets.total ?? undefined} transactionCount={transactions.total ?? undefined} />
        </Tabs.Content>
        <Tabs.Content value="wallet">
          <Card.Root>
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
            <Card.Body>
              {transactions.isPending ? (
                <PageSpinner label="Loading transactions" />
              ) : transactions.isError ? (
                <LoadError what="transactions" />
              ) : (
                <Stack gap="3">
                  <UserTransactionsTable transactions={transactions.items ?? []} emptyText="No transactions found for this user." />
                  <LoadMoreButton list={transactions} />
                </Stack>
              )}
            </Card.Body>
          </Card.Root>
        </Tabs.Content>
        <Tabs.Content value="bets">
          <Card.Root>
            <Card.Body>
              {bets.isPending ? (
                <PageSpinner label="Loading bets" />
              ) : bets.isError ? (
                <LoadError what="bets" />
              ) : (
                <Stack gap="3">
                  <BetsTable bets={bets.items ?? []} />
                  <LoadMoreButton list={bets} />
                </Stack>
              )}
            </Card.Body>
          </Card.Root>
        </Tabs.Content>
        <Tabs.Content value="bank">
          {bankAccounts.isPending ? (
            <PageSpinner label="Loading bank accounts" />
          ) : bankAccounts.isError ? (
            <LoadError what="bank accounts" />
          ) : (
            <Stack gap="3">
              <BankAccounts accounts={bankAccounts.items ?? []} />
              <LoadMoreButton list={bankAccounts} />
            </Stack>
          )}
        </Tabs.Content>
      </Tabs.Root>
    </Box>
  );
}
