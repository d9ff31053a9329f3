import { Card, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { formatRupees } from '../../../domain/money.ts';

export function BalanceCard({ balance, action }: { balance: number; action?: ReactNode }) {
  return (
    <Card.Root bg="blue.800" color="white" borderWidth="0">
      <Card.Body>
        <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ sm: 'center' }} gap="3">
          <Stack gap="0">
            <Text fontSize="sm" color="blue.100">
              Wallet Balance
            </Text>
            <Text fontSize="3xl" fontWeight="bold" data-testid="wallet-balance">
              {formatRupees(balance)}
            </Text>
          </Stack>
          {action}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
