/**
 * Search, the five tabs (initial filter from ?type=&status=, kept in the URL; pending deposits
 * only, the dashboard's link, shows under Pending with a way to widen it), the table, and
 * Approve / Reject on pending rows, each behind a confirmation dialog with the warnings.
 * Search and filters run on the server (the search once typing pauses); Load More fetches the next page.
 * The pending tabs show their counts (the admins' queue); the others would count most of the ledger.
 */
import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadMoreButton } from '@/components/ui/load-more-button.tsx';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import type { TransactionCounts } from '@/domain/admin-entities.ts';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { useAdminTransactionCounts, useAdminTransactions } from '../api/get-admin-transactions.ts';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { ListSearch, ListTabs } from '@/features/admin/shared/components/list-controls.tsx';
import { LoadError } from '@/components/ui/load-error.tsx';
import { PageHeader } from '@/features/admin/shared/components/page-header.tsx';
import { ReviewDialog, type Review } from '../components/transaction-review.tsx';
import { TransactionQueue } from '../components/transaction-tables.tsx';
import {
  TRANSACTION_TABS,
  filterFromQuery,
  filterLabel,
  filterQuery,
  queryForFilter,
  tabOf,
  type TransactionFilter,
  type TransactionTab,
} from '../lib/transaction-filters.ts';

function tabCounts(counts: TransactionCounts | undefined): Partial<Record<TransactionTab, number>> {
  if (!counts) return {};
  return {
    pending: counts.pending_deposits + counts.pending_withdrawals + counts.pending_adjustments,
    pending_withdrawals: counts.pending_withdrawals,
  };
}

/** 'Showing pending deposits only.' under the wider tab that holds a link's filter, with the way to widen it. */
function NarrowedNotice({ filter, onWiden }: { filter: TransactionFilter; onWiden: () => void }) {
  return (
    <HStack gap="3" mb="4" flexWrap="wrap">
      <Text fontSize="sm">{`Showing ${filterLabel(filter).toLowerCase()} only.`}</Text>
      <Button size="xs" variant="outline" onClick={onWiden}>
        {`Show all ${filterLabel(tabOf(filter)).toLowerCase()}`}
      </Button>
    </HStack>
  );
}

export function TransactionsRoute() {
  const [params, setParams] = useSearchParams();
  const filter = filterFromQuery(params);
  const tab = tabOf(filter);
  const show = (next: TransactionFilter) => setParams(queryForFilter(next), { replace: true });
  const [search, setSearch] = useState('');
  const [review, setReview] = useState<Review | null>(null);
  const transactions = useAdminTransactions({ search: useDebouncedValue(search.trim()), ...filterQuery(filter) });
  const counts = useAdminTransactionCounts().data;
  useErrorToast(transactions.error, 'Error loading transactions');
  const shown = transactions.items ?? [];

  return (
    <Box>
      <PageHeader title="Transactions" />
      <ListSearch what="transactions" value={search} onChange={setSearch} mb="4" />
      <ListTabs tabs={TRANSACTION_TABS} value={tab} onChange={show} counts={tabCounts(counts)} />
      {tab !== filter && <NarrowedNotice filter={filter} onWiden={() => show(tab)} />}
      {transactions.isPending ? (
        <PageSpinner label="Loading transactions" />
      ) : transactions.isError ? (
        <LoadError what="transactions" />
      ) : shown.length === 0 ? (
        <EmptyState title="No transactions found" />
      ) : (
        <Stack gap="3">
          <TransactionQueue transactions={shown} onReview={setReview} />
          <LoadMoreButton list={transactions} />
        </Stack>
      )}
      <ReviewDialog review={review} onClose={() => setReview(null)} />
    </Box>
  );
}
