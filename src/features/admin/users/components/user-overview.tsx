/**
 * The Overview tab of a user: User Information (Change Status), Wallet Balance (Manage Wallet, Quick
 * Adjustment), Contact User, Player Protection (read-only) and Linked accounts.
 */
import { Button, DataList, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { User } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { adminPaths } from '@/config/paths.ts';
import { ChangeStatusDialog } from './change-status-dialog.tsx';
import { InfoItem } from '@/features/admin/shared/components/info-item.tsx';
import { LinkedAccountsCard } from './linked-accounts-card.tsx';
import { PlayerProtectionCard } from './player-protection-card.tsx';
import { QuickAdjustmentDialog } from '@/features/admin/money/components/quick-adjustment-dialog.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';

function UserInformation({ user }: { user: User }) {
  return (
    <SectionCard title="User Information" action={<ChangeStatusDialog user={user} />}>
      <DataList.Root orientation="horizontal" size="sm">
        <InfoItem label="ID">{user.id}</InfoItem>
        <InfoItem label="Username">{user.username}</InfoItem>
        <InfoItem label="Name">{user.name}</InfoItem>
        <InfoItem label="Email">{user.email || '-'}</InfoItem>
        <InfoItem label="Phone">{user.phone || '-'}</InfoItem>
        <InfoItem label="Referral Code">{user.referral_code}</InfoItem>
        {user.referred_by !== null && <InfoItem label="Referred By">User #{user.referred_by}</InfoItem>}
      </DataList.Root>
    </SectionCard>
  );
}

/** The counts are the server's, sent with the first pages of the user's lists ('…' until then). */
function WalletBalance({
  user,
  betCount,
  transactionCount,
}: {
  user: User;
  betCount?: number;
  transactionCount?: number;
}) {
  return (
    <SectionCard title="Wallet Balance" gap="4">
      <Text fontSize="3xl" fontWeight="bold" data-testid="user-balance">
        {formatRupees(user.wallet_balance)}
      </Text>
      <DataList.Root orientation="horizontal" size="sm">
        <InfoItem label="Total Bets">{betCount ?? '…'}</InfoItem>
        <InfoItem label="Transactions">{transactionCount ?? '…'}</InfoItem>
      </DataList.Root>
      <HStack gap="2" flexWrap="wrap">
        <Button asChild size="sm" colorPalette="blue">
          <RouterLink to={adminPaths.userWallet(user.id)}>Manage Wallet</RouterLink>
        </Button>
        <QuickAdjustmentDialog user={user} />
      </HStack>
    </SectionCard>
  );
}

function ContactUser({ user }: { user: User }) {
  return (
    <SectionCard title="Contact User" gap="3">
      {user.email || user.phone ? (
        <Stack gap="1">
          {user.email && <Text>{user.email}</Text>}
          {user.phone && <Text>{user.phone}</Text>}
        </Stack>
      ) : (
        <Text color="fg.muted">No contact information available</Text>
      )}
      <Button size="sm" variant="outline" disabled={!user.email} alignSelf="start">
        Send Email
      </Button>
    </SectionCard>
  );
}

export function UserOverview({
  user,
  betCount,
  transactionCount,
}: {
  user: User;
  betCount?: number;
  transactionCount?: number;
}) {
  return (
    <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" alignItems="start">
      <UserInformation user={user} />
      <WalletBalance user={user} betCount={betCount} transactionCount={transactionCount} />
      <ContactUser user={user} />
      <PlayerProtectionCard userId={user.id} />
      <LinkedAccountsCard userId={user.id} />
    </SimpleGrid>
  );
}
