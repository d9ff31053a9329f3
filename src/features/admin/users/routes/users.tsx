/**
 * Search by id, username, name or email; All Users / Active / Suspended / Banned, each with its
 * count, and Below Zero (the players a result correction left below zero, who may not bet or withdraw); the
 * users table with links to the detail and wallet pages; the empty states ('Try adjusting your search
 * filters.' whenever the search or a tab narrows the list) and an inline error when the list fails to load.
 * Search and tabs run on the server (the search once typing pauses); Load More fetches the next page.
 */
import { Box, Button, HStack, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import { LoadMoreButton } from '@/components/ui/load-more-button.tsx';
import type { User } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { useAdminUserCounts, useAdminUsers } from '../api/get-admin-users.ts';
import { DataTable, type Column } from '@/components/ui/data-table.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { ListSearch, ListTabs } from '@/features/admin/shared/components/list-controls.tsx';
import { LoadError } from '@/components/ui/load-error.tsx';
import { PageHeader } from '@/features/admin/shared/components/page-header.tsx';
import { StatusBadge } from '@/features/admin/shared/components/status-badge.tsx';
import { adminPaths } from '@/config/paths.ts';

const TABS = [
  { value: 'all', label: 'All Users' },
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'banned', label: 'Banned' },
  { value: 'below_zero', label: 'Below Zero' },
] as const;

type UserTab = (typeof TABS)[number]['value'];

const columns: Column<User>[] = [
  { header: 'ID', cell: (user) => user.id },
  { header: 'Name', cell: (user) => user.name },
  { header: 'Username', cell: (user) => user.username },
  { header: 'Email', cell: (user) => user.email || '-' },
  { header: 'Balance (₹)', end: true, cell: (user) => formatRupees(user.wallet_balance) },
  { header: 'Role', cell: (user) => <StatusBadge kind="role" value={user.role} /> },
  { header: 'Status', cell: (user) => <StatusBadge kind="user" value={user.status} /> },
  {
    header: 'Actions',
    cell: (user) => (
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
    ),
  },
];

export function UsersRoute() {
  const [search, setSearch] = useState('');
  const [tab, setTab] = useState<UserTab>('all');
  const query = useDebouncedValue(search.trim());
  const users = useAdminUsers({
    search: query,
    status: tab === 'all' || tab === 'below_zero' ? undefined : tab,
    belowZero: tab === 'below_zero',
  });
  const counts = useAdminUserCounts();
  const { isPending, error } = users;
  useErrorToast(error, 'Error loading users');
  const shown = users.items ?? [];

  return (
    <Box>
      <PageHeader title="Users" />
      <ListSearch what="users" value={search} onChange={setSearch} mb="4" />
      <ListTabs tabs={TABS} value={tab} onChange={setTab} counts={counts.data} />
      {isPending ? (
        <PageSpinner label="Loading users" />
      ) : error ? (
        <LoadError what="users" />
      ) : shown.length === 0 ? (
        <EmptyState
          title="No users found"
          description={query || tab !== 'all' ? 'Try adjusting your search filters.' : 'No users are registered yet.'}
        />
      ) : (
        <Stack gap="3">
          <DataTable label="Users" rows={shown} columns={columns} framed />
          <LoadMoreButton list={users} />
        </Stack>
      )}
    </Box>
  );
}
