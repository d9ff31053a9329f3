/**
 * Search, the five tabs (initial filter from ?type=&status=, kept in the URL; pending deposits
 * only, the dashboard's link, shows under Pending with a way to widen it), the table, and
 * Approve / Reject on pending rows, each behind a confirmation dialog with the warnings.
 * Search and filters run on the server (the search once typing pauses); Load More fetches the next page.
 * The pending tabs show their counts (the admins' queue); the others would count most of the ledger.
 */
import { Box, Button, HStack, Input, Link, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { LoadMoreButton } from '../../../components/ui/load-more-button.tsx';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { useErrorToast } from '../../../components/ui/use-error-toast.ts';
import type { Transaction } from '../../../domain/entities.ts';
import { formatDateTime, formatRupees } from '../../../domain/money.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useApproveTransaction } from '../api/approve-transaction.ts';
import { useAdminTransactionCounts, useAdminTransactions } from '../api/get-admin-transactions.ts';
import { useRejectTransaction } from '../api/reject-transaction.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { TabCount } from '../components/tab-count.tsx';
import { signedAmount } from '../components/user-transactions-table.tsx';
import { adminPaths } from '../../../config/paths.ts';
import { humanize } from '../lib/labels.ts';
import {
  TRANSACTION_TABS, filterFromQuery, filterLabel, filterQuery, queryForFilter, tabOf, type TransactionTab,
} from '../lib/transaction-filters.ts';

type Pending = { action: 'approve' | 'reject'; transaction: Transaction } | null;

function describe(transaction: Transaction): string {
  return `${humanize(transaction.type).toLowerCase()} #${transaction.id} of ${formatRupees(Math.abs(transaction.amount))} for user #${transaction.user_id}`;
}

export function TransactionsRoute() {
  const [params, setParams] = useSearchParams();
  const filter = filterFromQuery(params);
  const tab = tabOf(filter);
  const [search, setSearch] = useState('');
  const [pending, setPending] = useState<Pending>(null);
  const query = useDebouncedValue(search.trim());
  const transactions = useAdminTransactions({ search: query, ...filterQuery(filter) });
  const counts = useAdminTransactionCounts().data;
  const tabCounts: Partial<Record<TransactionTab, number>> = counts
    ? {
        pending: counts.pending_deposits + counts.pending_withdrawals + counts.pending_adjustments,
        pending_withdrawals: counts.pending_withdrawals,
      }
    : {};
  const { isPending, error } = transactions;
  useErrorToast(error, 'Error loading transactions');
  const approve = useApproveTransaction();
  const reject = useRejectTransaction();
  const shown = transactions.items ?? [];

  const onConfirm = () => {
    if (!pending) return;
    const { action, transaction } = pending;
    if (action === 'approve') {
      approve.mutate(transaction.id, {
        onSuccess: () => {
          setPending(null);
          notify({ title: 'Transaction approved', description: `Transaction #${transaction.id} has been successfully approved and processed.` });
        },
        onError: (err) => notify({ title: 'Failed to approve transaction', description: errorMessage(err), variant: 'destructive' }),
      });
    } else {
      reject.mutate(transaction.id, {
        onSuccess: () => {
          setPending(null);
          notify({ title: 'Transaction rejected', description: `Transaction #${transaction.id} has been marked as failed.` });
        },
        onError: (err) => notify({ title: 'Failed to reject transaction', description: errorMessage(err), variant: 'destructive' }),
      });
    }
  };

  return (
    <Box>
      <PageHeader title="Transactions" />
      <Input
        placeholder="Search transactions..."
        aria-label="Search transactions"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        maxW="sm"
        mb="4"
        bg="white"
      />
      <Tabs.Root value={tab} onValueChange={(details) => setParams(queryForFilter(details.value as TransactionTab), { replace: true })} mb="4">
        <Tabs.List flexWrap="wrap">
          {TRANSACTION_TABS.map((entry) => (
            <Tabs.Trigger key={entry.value} value={entry.value}>
              {entry.label}
              <TabCount count={tabCounts[entry.value]} />
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Tabs.Root>
      {tab !== filter && (
        <HStack gap="3" mb="4" flexWrap="wrap">
          <Text fontSize="sm">{`Showing ${filterLabel(filter).toLowerCase()} only.`}</Text>
          <Button size="xs" variant="outline" onClick={() => setParams(queryForFilter(tab), { replace: true })}>
            {`Show all ${filterLabel(tab).toLowerCase()}`}
          </Button>
        </HStack>
      )}
      {isPending ? (
        <PageSpinner label="Loading transactions" />
      ) : error ? (
        <Text color="fg.error">Error loading transactions. Please try again later.</Text>
      ) : shown.length === 0 ? (
        <EmptyState title="No transactions found" />
      ) : (
        <Stack gap="3">
        <Table.ScrollArea borderWidth="1px" rounded="md" bg="white">
          <Table.Root size="sm" aria-label="Transactions">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>ID</Table.ColumnHeader>
                <Table.ColumnHeader>User</Table.ColumnHeader>
                <Table.ColumnHeader>Date</Table.ColumnHeader>
                <Table.ColumnHeader>Type</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader>Reference</Table.ColumnHeader>
                <Table.ColumnHeader>Actions</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {shown.map((transaction) => (
                <Table.Row key={transaction.id} data-testid={`transaction-${transaction.id}`}>
                  <Table.Cell>{transaction.id}</Table.Cell>
                  <Table.Cell>
                    <Link asChild color="blue.600">
                      <RouterLink to={adminPaths.user(transaction.user_id)}>User #{transaction.user_id}</RouterLink>
                    </Link>
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{formatDateTime(transaction.created_at)}</Table.Cell>
                  <Table.Cell>{humanize(transaction.type)}</Table.Cell>
                  <Table.Cell textAlign="end" fontWeight="semibold" color={transaction.amount > 0 ? 'green.600' : 'red.600'}>
                    {signedAmount(transaction.amount)}
                  </Table.Cell>
                  <Table.Cell>
                    <StatusBadge kind="transaction" value={transaction.status} />
                  </Table.Cell>
                  <Table.Cell>{transaction.reference_id || '-'}</Table.Cell>
                  <Table.Cell>
                    {transaction.status === 'pending' ? (
                      <HStack gap="2">
                        <Button size="xs" colorPalette="green" onClick={() => setPending({ action: 'approve', transaction })}>
                          Approve
                        </Button>
                        <Button size="xs" colorPalette="red" variant="outline" onClick={() => setPending({ action: 'reject', transaction })}>
                          Reject
                        </Button>
                      </HStack>
                    ) : (
                      '-'
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        <LoadMoreButton list={transactions} />
        </Stack>
      )}
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.action === 'reject' ? 'Reject Transaction' : 'Approve Transaction'}
        confirmLabel={pending?.action === 'reject' ? 'Reject' : 'Approve'}
        confirmPalette={pending?.action === 'reject' ? 'red' : 'green'}
        onConfirm={onConfirm}
        pending={approve.isPending || reject.isPending}
      >
        {pending && (
          <Stack gap="2">
            <Text>
              {pending.action === 'approve' ? 'Approve' : 'Reject'} the {describe(pending.transaction)}?
            </Text>
            {pending.action === 'approve' ? (
              <>
                <Text>Approving will process this payment and adjust the user's wallet balance.</Text>
                {pending.transaction.type === 'withdrawal' && (
                  <Text fontWeight="semibold" color="orange.700">
                    For withdrawals, make sure you have processed the actual bank transfer before approving.
                  </Text>
                )}
                {pending.transaction.type === 'admin_adjustment' && (
                  <Text fontWeight="semibold" color="orange.700">
                    Another administrator asked for this credit: check its reason before approving.
                  </Text>
                )}
              </>
            ) : (
              <Text>Rejecting will mark this transaction as failed. No funds will be moved.</Text>
            )}
          </Stack>
        )}
      </ConfirmDialog>
    </Box>
  );
}
