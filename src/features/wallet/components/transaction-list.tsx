/**
 * The wallet's transaction list: 3 items in the compact overview or 10 in the detailed view,
 * Load More fetches the next 10 from the server, filters all / deposits / withdrawals (on the server), a
 * scroll area of 350 px (600 px detailed). The player's pending deposits offer 'Pay now' (resume the
 * payment at the gateway).
 */
import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LoadMoreButton } from '@/components/ui/load-more-button.tsx';
import { LastUpdated } from '@/components/ui/offline.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import type { Transaction } from '@/domain/entities.ts';
import type { TransactionStatus, TransactionType } from '@/domain/limits.ts';
import { formatDate, formatSignedRupees, formatTime } from '@/lib/format.ts';
import { useTransactions, type TransactionFilter } from '../api/get-transactions.ts';
import { PayNowButton } from './pay-now-button.tsx';

export const NO_TRANSACTIONS = 'No transactions found.';
export const TRANSACTIONS_ERROR = 'Error loading transactions. Please try again later.';

const filters: { value: TransactionFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'deposits', label: 'Deposits' },
  { value: 'withdrawals', label: 'Withdrawals' },
];

const typeLabels: Record<TransactionType, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  bet_placed: 'Bet Placed',
  bet_won: 'Bet Won',
  bet_lost: 'Bet Lost',
  bet_refund: 'Bet Refund',
  referral_bonus: 'Referral Bonus',
  admin_adjustment: 'Adjustment',
  settlement_reversal: 'Result Corrected',
};

const statusPalettes: Record<TransactionStatus, string> = { pending: 'orange', completed: 'green', failed: 'red' };

/** A deposit still waiting for its payment: the player may resume it. */
function isUnpaidDeposit(transaction: Transaction): transaction is Transaction & { reference_id: string } {
  return transaction.type === 'deposit' && transaction.status === 'pending' && transaction.reference_id !== null;
}

export interface TransactionListProps {
  /** detailed: 10 items and 600 px (and a toast when the list fails to load); otherwise 3 items and 350 px */
  detailed?: boolean;
}

export function TransactionList({ detailed = false }: TransactionListProps) {
  const [filter, setFilter] = useState<TransactionFilter>('all');
  const list = useTransactions({ filter, detailed });
  useErrorToast(detailed ? list.error : null, 'Failed to fetch transactions');
  const shown: Transaction[] = list.items ?? [];

  return (
    <Stack gap="3">
      <HStack role="group" aria-label="Filter transactions" gap="2">
        {filters.map(({ value, label }) => (
          <Button
            key={value}
            size="xs"
            variant={filter === value ? 'solid' : 'outline'}
            colorPalette="blue"
            aria-pressed={filter === value}
            onClick={() => setFilter(value)}
          >
            {label}
          </Button>
        ))}
      </HStack>
      <LastUpdated at={list.dataUpdatedAt} />
      <Box
        maxH={detailed ? '600px' : '350px'}
        overflowY="auto"
        tabIndex={0}
        aria-label="Transactions"
        role="region"
        data-testid="transaction-scroll"
      >
        {list.isPending ? (
          <Text color="fg.muted">Loading transactions...</Text>
        ) : list.isError ? (
          <Text color="red.700" role="alert">
            {TRANSACTIONS_ERROR}
          </Text>
        ) : shown.length === 0 ? (
          <Text color="fg.muted">{NO_TRANSACTIONS}</Text>
        ) : (
          <Stack as="ul" gap="2" aria-label="Transaction list">
            {shown.map((transaction) => (
              <HStack
                as="li"
                key={transaction.id}
                justify="space-between"
                borderWidth="1px"
                rounded="md"
                px="3"
                py="2"
                listStyleType="none"
              >
                <Stack gap="0" minW="0">
                  <Text fontWeight="medium">{typeLabels[transaction.type] ?? transaction.type}</Text>
                  <Text fontSize="xs" color="fg.muted">
                    {formatDate(transaction.created_at)} · {formatTime(transaction.created_at)}
                  </Text>
                  {transaction.reference_id && (
                    <Text fontSize="xs" color="fg.muted" truncate>
                      {transaction.reference_id}
                    </Text>
                  )}
                </Stack>
                <Stack gap="1" align="end" flexShrink={0}>
                  <Text fontWeight="semibold" color={transaction.amount >= 0 ? 'green.700' : 'red.700'}>
                    {formatSignedRupees(transaction.amount)}
                  </Text>
                  <Badge size="sm" colorPalette={statusPalettes[transaction.status] ?? 'gray'}>
                    {transaction.status}
                  </Badge>
                  {isUnpaidDeposit(transaction) && <PayNowButton deposit={transaction} />}
                </Stack>
              </HStack>
            ))}
          </Stack>
        )}
      </Box>
      <LoadMoreButton list={list} />
    </Stack>
  );
}
