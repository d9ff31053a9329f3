/**
 * The Overview tab of a user: User Information (Change Status), Wallet Balance (Manage Wallet, Quick
 * Adjustment), Contact User and Player Protection (read-only).
 */
import { Button, Card, DataList, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { User } from '../../../domain/entities.ts';
import { formatRupees } from '../../../domain/money.ts';
import { adminPaths } from '../../../config/paths.ts';
import { ChangeStatusDialog } from './change-status-dialog.tsx';
import { InfoItem } from './info-item.tsx';
import { PlayerProtectionCard } from './player-protection-card.tsx';
import { QuickAdjustmentDialog } from './quick-adjustment-dialog.tsx';

function UserInformation({ user }: { user: User }) {
  return (
    <Card.Root as="section" aria-label="User Information">
      <Card.Header>
        <HStack justify="space-between">
          <Heading size="md">User Information</Heading>
          <ChangeStatusDialog user={user} />
        </HStack>
      </Card.Header>
      <Card.Body>
        <DataList.Root orientation="horizontal" size="sm">
          <InfoItem label="ID">{user.id}</InfoItem>
          <InfoItem label="Username">{user.username}</InfoItem>
          <InfoItem label="Name">{user.name}</InfoItem>
          <InfoItem label="Email">{user.email || '-'}</InfoItem>
          <InfoItem label="Phone">{user.phone || '-'}</InfoItem>
          <InfoItem label="Referral Code">{user.referral_code}</InfoItem>
          {user.referred_by !== null && <InfoItem label="Referred By">User #{user.referred_by}</InfoItem>}
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  );
}

/** The counts are the server's, sent with the first pages of the user's lists ('…' until then). */
function WalletBalance({ user, betCount, transactionCount }: { user: User; betCount?: number; transactionCount?: number }) {
  return (
    <Card.Root as="section" aria-label="Wallet Balance">
      <Card.Header>
        <Heading size="md">Wallet Balance</Heading>
      </Card.Header>
      <Card.Body gap="4">
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
      </Card.Body>
    </Card.Root>
  );
}

function ContactUser({ user }: { user: User }) {
  return (
    <Card.Root as="section" aria-label="Contact User">
      <Card.Header>
        <Heading size="md">Contact User</Heading>
      </Card.Header>
      <Card.Body gap="3">
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
      </Card.Body>
    </Card.Root>
  );
}

export function UserOverview({ user, betCount, transactionCount }: { user: User; betCount?: number; transactionCount?: number }) {
  return (
    <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" alignItems="start">
      <UserInformation user={user} />
      <WalletBalance user={user} betCount={betCount} transactionCount={transactionCount} />
      <ContactUser user={user} />
      <PlayerProtectionCard userId={user.id} />
    </SimpleGrid>
  );
}
