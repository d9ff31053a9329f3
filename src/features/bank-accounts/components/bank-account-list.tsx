import { Badge, HStack, Stack, Text } from '@chakra-ui/react';
import type { BankAccount } from '@/domain/entities.ts';

export const NO_BANK_ACCOUNTS = 'No bank accounts added yet.';

export function BankAccountList({ accounts }: { accounts: BankAccount[] }) {
  if (accounts.length === 0) return <Text color="fg.muted">{NO_BANK_ACCOUNTS}</Text>;
  return (
    <Stack as="ul" gap="2" aria-label="Bank accounts">
      {accounts.map((account) => (
        <HStack
          as="li"
          key={account.id}
          listStyleType="none"
          justify="space-between"
          borderWidth="1px"
          rounded="md"
          p="3"
        >
          <Stack gap="0">
            <Text fontWeight="semibold">{account.bank_name}</Text>
            <Text fontSize="sm">{account.account_holder}</Text>
            <Text fontSize="sm" color="fg.muted">
              A/C ••••{account.account_number.slice(-4)} · IFSC {account.ifsc_code}
            </Text>
          </Stack>
          <Badge colorPalette={account.is_active ? 'green' : 'gray'}>{account.is_active ? 'Active' : 'Inactive'}</Badge>
        </HStack>
      ))}
    </Stack>
  );
}
