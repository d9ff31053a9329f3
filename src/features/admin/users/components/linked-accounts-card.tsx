/**
 * Linked accounts (one person, one account): the accounts that share a bank account or a phone number with
 * the user (from before that rule; an exclusion binds them anyway) or a device both signed in with in the last
 * 90 days, each with why. A device may be a family's, so an exclusion never follows it by itself: when a
 * device-linked account has a time-out or self-exclusion running that does not bind this user yet, the admin
 * may apply it here (audited). Nobody can lift it afterwards.
 */
import { Badge, Button, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { adminPaths } from '@/config/paths.ts';
import type { LinkedAccount, LinkReason } from '@/domain/admin-entities.ts';
import { formatDateTime } from '@/domain/money.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useApplyLinkedExclusion, useLinkedAccounts } from '../api/linked-accounts.ts';
import { LoadError } from '@/components/ui/load-error.tsx';
import { StatusBadge } from '@/features/admin/shared/components/status-badge.tsx';

const REASONS: Record<LinkReason, string> = {
  bank_account: 'Same bank account',
  phone: 'Same phone number',
  device: 'Same device',
};

const exclusionName = (kind: 'timeout' | 'self_exclusion') => (kind === 'timeout' ? 'time-out' : 'self-exclusion');

function ApplyExclusionButton({ userId, account }: { userId: number; account: LinkedAccount }) {
  const apply = useApplyLinkedExclusion();
  const kind = exclusionName(account.exclusion!.kind);
  return (
    <Button
      size="xs"
      colorPalette="red"
      variant="outline"
      alignSelf="start"
      loading={apply.isPending}
      onClick={() =>
        apply.mutate(
          { userId, linkedId: account.id },
          {
            onSuccess: () =>
              notify({ title: 'Exclusion applied', description: `This account is now bound by the ${kind}.` }),
            onError: (error) =>
              notify({ title: 'Failed to apply exclusion', description: errorMessage(error), variant: 'destructive' }),
          },
        )
      }
    >
      Apply their {kind} here
    </Button>
  );
}

function LinkedAccountItem({ userId, account }: { userId: number; account: LinkedAccount }) {
  const byDevice = account.links.some((link) => link.reason === 'device');
  const { exclusion } = account;
  return (
    <Stack as="li" gap="1" borderWidth="1px" borderRadius="md" p="3" aria-label={account.username}>
      <HStack gap="2" flexWrap="wrap">
        <Link asChild fontWeight="semibold">
          <RouterLink to={adminPaths.user(account.id)}>{account.username}</RouterLink>
        </Link>
        <Text color="fg.muted">#{account.id}</Text>
        <StatusBadge kind="user" value={account.status} />
      </HStack>
      {account.links.map((link) => (
        <Text key={link.reason} fontSize="sm">
          {REASONS[link.reason]}: {link.detail}
        </Text>
      ))}
      {exclusion && (
        <HStack gap="2" flexWrap="wrap">
          <Badge colorPalette="red">
            {exclusionName(exclusion.kind)} until {formatDateTime(exclusion.ends_at)}
          </Badge>
          {exclusion.binds_this_user && <Text fontSize="sm">Binds this account too.</Text>}
        </HStack>
      )}
      {exclusion && !exclusion.binds_this_user && byDevice && (
        <ApplyExclusionButton userId={userId} account={account} />
      )}
    </Stack>
  );
}

export function LinkedAccountsCard({ userId }: { userId: number }) {
  const linked = useLinkedAccounts(userId);
  return (
    <SectionCard
      title="Linked accounts"
      description="Accounts sharing a bank account, a phone number or a device (90 days) with this one."
      gap="3"
    >
      {linked.isPending ? (
        <PageSpinner label="Loading linked accounts" />
      ) : linked.isError ? (
        <LoadError what="linked accounts" />
      ) : linked.data.length === 0 ? (
        <Text color="fg.muted">No linked accounts.</Text>
      ) : (
        <Stack as="ul" gap="2" listStyleType="none" aria-label="Linked accounts">
          {linked.data.map((account) => (
            <LinkedAccountItem key={account.id} userId={userId} account={account} />
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
