/**
 * The statistics (activity figures over the last 7 days), recent matches and recent
 * transactions; the pending counters link into the transactions screen with type and status set.
 */
import { Box, Card, Heading, HStack, Link, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import { formatDateTime, formatRupees } from '@/domain/money.ts';
import { formatSignedRupees } from '@/lib/format.ts';
import { useDashboardStats } from '../api/get-dashboard-stats.ts';
import { TodayHouseResult } from '@/features/admin/books/components/today-house-result.tsx';
import { PageHeader } from '@/features/admin/shared/components/page-header.tsx';
import { StatusBadge } from '@/features/admin/shared/components/status-badge.tsx';
import { adminPaths } from '@/config/paths.ts';
import { humanize } from '@/features/admin/shared/lib/labels.ts';

function StatCard({ label, value, help, to }: { label: string; value: ReactNode; help?: string; to?: string }) {
  const body = (
    <Card.Root h="full" _hover={to ? { borderColor: 'blue.400' } : undefined}>
      <Card.Body>
        <Stat.Root>
          <Stat.Label>{label}</Stat.Label>
          <Stat.ValueText>{value}</Stat.ValueText>
          {help && <Stat.HelpText>{help}</Stat.HelpText>}
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
  return to ? (
    <RouterLink to={to} aria-label={`${label}: ${value}`}>
      {body}
    </RouterLink>
  ) : (
    body
  );
}

interface RecentListProps<T> {
  title: string;
  /** The full list's screen ('View all'). */
  to: string;
  items: T[];
  empty: string;
  children: (item: T) => ReactNode;
}

/** A card with the latest few of something, each row laid out by `children`, and a link to all of them. */
function RecentList<T extends { id: number }>({ title, to, items, empty, children }: RecentListProps<T>) {
  return (
    <Card.Root>
      <Card.Header>
        <HStack justify="space-between">
          <Heading size="md">{title}</Heading>
          <Link asChild fontSize="sm" color="blue.600">
            <RouterLink to={to}>View all</RouterLink>
          </Link>
        </HStack>
      </Card.Header>
      <Card.Body>
        {items.length === 0 ? (
          <Text color="fg.muted">{empty}</Text>
        ) : (
          <Stack as="ul" gap="3" listStyleType="none">
            {items.map((item) => (
              <HStack as="li" key={item.id} justify="space-between" gap="3">
                {children(item)}
              </HStack>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

export function DashboardRoute() {
  const { data: stats, isPending, error } = useDashboardStats();
  useErrorToast(error, 'Error loading dashboard');

  return (
    <Box>
      <PageHeader title="Dashboard" />
      {isPending ? (
        <PageSpinner label="Loading dashboard" />
      ) : !stats ? (
        <Text color="fg.error">Error loading dashboard. Please try again later.</Text>
      ) : (
        <Stack gap="8">
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
            <StatCard
              label="Total Users"
              value={stats.totalUsers}
              help={`${stats.activeUsers} active in the last 7 days`}
              to={adminPaths.users}
            />
            <StatCard
              label="Total Matches"
              value={stats.totalMatches}
              help={`${stats.liveMatches} live · ${stats.upcomingMatches} upcoming · ${stats.completedMatches} completed`}
              to={adminPaths.matches}
            />
            <TodayHouseResult />
            <StatCard label="Total Bets" value={stats.totalBets} help="Last 7 days" />
            <StatCard
              label="Transaction Volume"
              value={formatRupees(stats.totalTransactionVolume)}
              help="Deposits and withdrawals, last 7 days"
              to={adminPaths.transactions}
            />
            <StatCard label="Active Users" value={stats.activeUsers} help="Last 7 days" />
            <StatCard label="Live Matches" value={stats.liveMatches} to={adminPaths.matches} />
            <StatCard
              label="Pending Deposits"
              value={stats.pendingDeposits}
              to={adminPaths.transactionsFiltered('deposit', 'pending')}
            />
            <StatCard
              label="Pending Withdrawals"
              value={stats.pendingWithdrawals}
              to={adminPaths.transactionsFiltered('withdrawal', 'pending')}
            />
          </SimpleGrid>

          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
            <RecentList
              title="Recent Matches"
              to={adminPaths.matches}
              items={stats.recentMatches}
              empty="No recent matches found"
            >
              {(match) => (
                <>
                  <Box minW="0">
                    <Link asChild fontWeight="semibold">
                      <RouterLink to={adminPaths.match(match.id)}>
                        {match.team1_name} vs {match.team2_name}
                      </RouterLink>
                    </Link>
                    <Text fontSize="sm" color="fg.muted">
                      {formatDateTime(match.start_time)}
                    </Text>
                  </Box>
                  <StatusBadge kind="match" value={match.status} />
                </>
              )}
            </RecentList>
            <RecentList
              title="Recent Transactions"
              to={adminPaths.transactions}
              items={stats.recentTransactions}
              empty="No recent transactions found"
            >
              {(transaction) => (
                <>
                  <Box minW="0">
                    <Text fontWeight="semibold">
                      #{transaction.id} · {humanize(transaction.type)}
                    </Text>
                    <Link asChild fontSize="sm" color="fg.muted">
                      <RouterLink to={adminPaths.user(transaction.user_id)}>User #{transaction.user_id}</RouterLink>
                    </Link>
                  </Box>
                  <HStack>
                    <Text fontWeight="semibold" color={transaction.amount > 0 ? 'green.600' : 'red.600'}>
                      {formatSignedRupees(transaction.amount)}
                    </Text>
                    <StatusBadge kind="transaction" value={transaction.status} />
                  </HStack>
                </>
              )}
            </RecentList>
          </SimpleGrid>
        </Stack>
      )}
    </Box>
  );
}
