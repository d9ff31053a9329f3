import { Badge, Card, HStack, SimpleGrid, Text } from '@chakra-ui/react';
import type { BankAccount } from '@/domain/entities.ts';

/** A user's bank accounts as cards: bank, Active / Inactive, holder, account number and IFSC. */
export function BankAccountCards({ accounts }: { accounts: readonly BankAccount[] }) {
  if (accounts.length === 0) return <Text color="fg.muted">No bank accounts registered by this user.</Text>;
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
      {accounts.map((account) => (
        <Card.Root key={account.id} size="sm">
          <Card.Body gap="1">
            <HStack justify="space-between">
              <Text fontWeight="bold">{account.bank_name}</Text>
              <Badge colorPalette={account.is_active ? 'green' : 'gray'}>
                {account.is_active ? 'Active' : 'Inactive'}
              </Badge>
            </HStack>
            <Text>{account.account_holder}</Text>
            <Text fontFamily="mono">{account.account_number}</Text>
            <Text fontFamily="mono" color="fg.muted">
              {account.ifsc_code}
            </Text>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
