/**
 * Search by id, username, name or email; All Users / Active / Suspended / Banned, each with its
 * count; the users table with links to the detail and wallet pages; the empty states ('Try adjusting your
 * search filters.' whenever the search or a tab narrows the list) and an inline error when the list fails to
 * load. Search and tabs run on the server (the search once typing pauses); Load More fetches the next page.
 */
import { Box, Button, HStack, Input, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { useErrorToast } from '../../../components/ui/use-error-toast.ts';
import { LoadMoreButton } from '../../../components/ui/load-more-button.tsx';
import type { UserCounts } from '../../../domain/entities.ts';
import { formatRupees } from '../../../domain/money.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useAdminUserCounts, useAdminUsers } from '../api/get-admin-users.ts';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { TabCount } from '../components/tab-count.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { adminPaths } from '../../../config/paths.ts';

const TABS = [
  { value: 'all', label: 'All Users' },
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'banned', label: 'Banned' },
] as const;

type UserTab = (typeof TABS)[number]['value'];

export function UsersRoute() {
  const [search, setSearch] = useState('');
  const [tab, setTab] = useState<UserTab>('all');
  const query = useDebouncedValue(search.trim());
  const users = useAdminUsers({ search: query, status: tab === 'all' ? undefined : tab });
  const counts = useAdminUserCounts();
  const { isPending, error } = users;
  useErrorToast(error, 'Error loading users');
  const shown = users.items ?? [];

  return (
    <Box>
      <PageHeader title="Users" />
      <Input placeholder="Search users..." aria-label="Search users" value={search} onChange={(event) => setSearch(event.target.value)} maxW="sm" mb="4" bg="white" />
      <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value as UserTab)} mb="4">
        <Tabs.List>
          {TABS.map((option) => (
            <Tabs.Trigger key={option.value} value={option.value}>
              {option.label}
              <TabCount count={counts.data?.[option.value as keyof UserCounts]} />
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Tabs.Root>
      {isPending ? (
        <PageSpinner label="Loading users" />
      ) : error ? (
        <Text color="fg.error">Error loading users. Please try again later.</Text>
      ) : shown.length === 0 ? (
        <EmptyState
          title="No users found"
          description={query || tab !== 'all' ? 'Try adjusting your search filters.' : 'No users are registered yet.'}
        />
      ) : (
        <Stack gap="3">
        <Table.ScrollArea borderWidth="1px" rounded="md" bg="white">
          <Table.Root size="sm" aria-label="Users">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>ID</Table.ColumnHeader>
                <Table.ColumnHeader>Name</Table.ColumnHeader>
                <Table.ColumnHeader>Username</Table.ColumnHeader>
                <Table.ColumnHeader>Email</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Balance (₹)</Table.ColumnHeader>
                <Table.ColumnHeader>Role</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader>Actions</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {shown.map((user) => (
                <Table.Row key={user.id}>
                  <Table.Cell>{user.id}</Table.Cell>
                  <Table.Cell>{user.name}</Table.Cell>
                  <Table.Cell>{user.username}</Table.Cell>
                  <Table.Cell>{user.email || '-'}</Table.Cell>
                  <Table.Cell textAlign="end">{formatRupees(user.wallet_balance)}</Table.Cell>
                  <Table.Cell>
                    <StatusBadge kind="role" value={user.role} />
                  </Table.Cell>
                  <Table.Cell>
                    <StatusBadge kind="user" value={user.status} />
                  </Table.Cell>
                  <Table.Cell>
                    <HStack gap="2">
                      <Button asChild size="xs" variant="outline">
                        <RouterLink to={adminPaths.user(user.id)} aria-label={`View ${user.username}`}>
                          View
                        </RouterLink>
                      </Button>
                      <Button asChild size="xs" variant="outline" colorPalette="blue">
                        <RouterLink to={adminPaths.userWallet(user.id)} aria-label={`Wallet of ${user.username}`}>
                          Wallet
                        </RouterLink>
                      </Button>
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        <LoadMoreButton list={users} />
        </Stack>
      )}
    </Box>
  );
}
