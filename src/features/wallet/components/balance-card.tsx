import { Card, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { User } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { heldForWithdrawals } from '@/lib/format.ts';

/** The wallet balance; with pending withdrawals also what is available (what bets and withdrawals may spend). */
export function BalanceCard({ user, action }: { user: User | null | undefined; action?: ReactNode }) {
  return (
    <Card.Root bg="blue.800" color="white" borderWidth="0">
      <Card.Body>
        <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ sm: 'center' }} gap="3">
          <Stack gap="0">
            <Text fontSize="sm" color="blue.100">
              Wallet Balance
            </Text>
            <Text fontSize="3xl" fontWeight="bold" data-testid="wallet-balance">
              {/* never guessed: without the server's answer (offline) no figure shows */}
              {user ? formatRupees(user.wallet_balance) : '—'}
            </Text>
            {user && user.pending_withdrawals > 0 && (
              <Text fontSize="sm" color="blue.100" data-testid="available-balance">
                Available: {formatRupees(user.available_balance)}
                {heldForWithdrawals(user.pending_withdrawals)}
              </Text>
            )}
          </Stack>
          {action}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
