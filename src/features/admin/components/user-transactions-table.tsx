/** A user's ledger (the user's wallet tab, the wallet management history): ID, Date, Type, Amount (+green / red), Status, Reference. */
import { Table, Text } from '@chakra-ui/react';
import type { Transaction } from '../../../domain/entities.ts';
import { formatDateTime, formatRupees } from '../../../domain/money.ts';
import { humanize } from '../lib/labels.ts';
import { StatusBadge } from './status-badge.tsx';

/** '+₹1,000' for a credit, '-₹500' for a debit, '₹0' for zero. */
export function signedAmount(amount: number): string {
  if (amount > 0) return `+${formatRupees(amount)}`;
  if (amount < 0) return `-${formatRupees(-amount)}`;
  return formatRupees(0);
}

export function UserTransactionsTable({ transactions, emptyText, label = 'Transactions' }: { transactions: readonly Transaction[]; emptyText: string; label?: string }) {
  if (transactions.length === 0) return <Text color="fg.muted">{emptyText}</Text>;
  return (
    <Table.ScrollArea maxH="600px">
      <Table.Root size="sm" aria-label={label} stickyHeader>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>ID</Table.ColumnHeader>
            <Table.ColumnHeader>Date</Table.ColumnHeader>
            <Table.ColumnHeader>Type</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Reference</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {transactions.map((transaction) => (
            <Table.Row key={transaction.id}>
              <Table.Cell>{transaction.id}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDateTime(transaction.created_at)}</Table.Cell>
              <Table.Cell>{humanize(transaction.type)}</Table.Cell>
              <Table.Cell textAlign="end" fontWeight="semibold" color={transaction.amount > 0 ? 'green.600' : 'red.600'}>
                {signedAmount(transaction.amount)}
              </Table.Cell>
              <Table.Cell>
                <StatusBadge kind="transaction" value={transaction.status} />
              </Table.Cell>
              <Table.Cell>{transaction.reference_id || '-'}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
