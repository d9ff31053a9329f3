/**
 * The back office's transaction tables: ID, Date, Type, Amount (+green / red), Status, Reference. The
 * transactions screen's queue adds the user after the ID, and Approve / Reject at the end.
 */
import { Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { Transaction } from '@/domain/entities.ts';
import { formatDateTime, formatRupees } from '@/domain/money.ts';
import { adminPaths } from '@/config/paths.ts';
import { humanize } from '@/features/admin/shared/lib/labels.ts';
import { DataTable, type Column } from '@/components/ui/data-table.tsx';
import { StatusBadge } from '@/features/admin/shared/components/status-badge.tsx';
import { ReviewButtons, type Review } from './transaction-review.tsx';

/** '+₹1,000' for a credit, '-₹500' for a debit, '₹0' for zero. */
export function signedAmount(amount: number): string {
  if (amount > 0) return `+${formatRupees(amount)}`;
  if (amount < 0) return `-${formatRupees(-amount)}`;
  return formatRupees(0);
}

const id: Column<Transaction> = { header: 'ID', cell: (transaction) => transaction.id };

const owner: Column<Transaction> = {
  header: 'User',
  cell: (transaction) => (
    <Link asChild color="blue.600">
      <RouterLink to={adminPaths.user(transaction.user_id)}>User #{transaction.user_id}</RouterLink>
    </Link>
  ),
};

const details: Column<Transaction>[] = [
  { header: 'Date', nowrap: true, cell: (transaction) => formatDateTime(transaction.created_at) },
  { header: 'Type', cell: (transaction) => humanize(transaction.type) },
  {
    header: 'Amount',
    end: true,
    cellProps: (transaction) => ({ fontWeight: 'semibold', color: transaction.amount > 0 ? 'green.600' : 'red.600' }),
    cell: (transaction) => signedAmount(transaction.amount),
  },
  { header: 'Status', cell: (transaction) => <StatusBadge kind="transaction" value={transaction.status} /> },
  { header: 'Reference', cell: (transaction) => transaction.reference_id || '-' },
];

/** One user's ledger (the user's wallet tab, the wallet management history): it scrolls within its card. */
export function UserLedger({
  transactions,
  label,
  empty,
}: {
  transactions: readonly Transaction[];
  label: string;
  empty: string;
}) {
  return (
    <DataTable label={label} rows={transactions} columns={[id, ...details]} empty={empty} maxH="600px" stickyHeader />
  );
}

/** Every user's transactions, with Approve / Reject on the pending ones. */
export function TransactionQueue({
  transactions,
  onReview,
}: {
  transactions: readonly Transaction[];
  onReview: (review: Review) => void;
}) {
  const actions: Column<Transaction> = {
    header: 'Actions',
    cell: (transaction) => <ReviewButtons transaction={transaction} onReview={onReview} />,
  };
  return (
    <DataTable
      label="Transactions"
      rows={transactions}
      columns={[id, owner, ...details, actions]}
      rowTestId={(transaction) => `transaction-${transaction.id}`}
      framed
    />
  );
}
