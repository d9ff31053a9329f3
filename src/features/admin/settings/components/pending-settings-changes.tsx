/**
 * The settings changes that wait for a second administrator (a raised second-approval threshold or daily
 * credit cap): what each sets, from what, and who proposed it. Another admin applies or drops it; its
 * proposer can only withdraw it (the server refuses them the approval: 'A second administrator must approve
 * this change').
 */
import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { formatDateTime, formatRupees } from '@/domain/money.ts';
import type { RiskSettings, SettingsChange } from '@/domain/risk.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useUser } from '@/lib/auth.ts';
import { useDecideSettingsChange, useSettingsChanges, type SettingsDecision } from '../api/settings-changes.ts';
import { SETTING_LABELS } from '@/features/admin/shared/lib/labels.ts';
import { LoadError } from '@/components/ui/load-error.tsx';

const outcomes = {
  approve: { done: 'Change approved', said: 'The settings have been updated.', failed: 'Failed to approve change' },
  reject: { done: 'Change rejected', said: 'The settings stay as they are.', failed: 'Failed to reject change' },
} as const;

function settingValue(value: RiskSettings[keyof RiskSettings] | undefined): string {
  return typeof value === 'number' ? formatRupees(value) : String(value ?? '-');
}

function ChangeItem({ change, own }: { change: SettingsChange; own: boolean }) {
  const decide = useDecideSettingsChange();
  const send = (decision: SettingsDecision['decision']) =>
    decide.mutate(
      { id: change.id, decision },
      {
        onSuccess: () => notify({ title: outcomes[decision].done, description: outcomes[decision].said }),
        onError: (error) =>
          notify({ title: outcomes[decision].failed, description: errorMessage(error), variant: 'destructive' }),
      },
    );
  const keys = Object.keys(change.changes) as (keyof RiskSettings)[];
  return (
    <Stack as="li" gap="2" borderWidth="1px" borderRadius="md" p="3" aria-label={`Change #${change.id}`}>
      {keys.map((key) => (
        <Text key={key}>
          <Text as="span" fontWeight="semibold">
            {SETTING_LABELS[key]}
          </Text>
          : {settingValue(change.previous[key])} → {settingValue(change.changes[key])}
        </Text>
      ))}
      <Text fontSize="sm" color="fg.muted">
        Proposed by {own ? 'you' : change.proposed_by_username} on {formatDateTime(change.created_at)}
      </Text>
      <HStack gap="2">
        {own ? (
          <>
            <Text fontSize="sm">Waiting for another administrator.</Text>
            <Button size="xs" variant="outline" onClick={() => send('reject')} loading={decide.isPending}>
              Withdraw
            </Button>
          </>
        ) : (
          <>
            <Button size="xs" colorPalette="green" onClick={() => send('approve')} loading={decide.isPending}>
              Approve
            </Button>
            <Button
              size="xs"
              colorPalette="red"
              variant="outline"
              onClick={() => send('reject')}
              loading={decide.isPending}
            >
              Reject
            </Button>
          </>
        )}
      </HStack>
    </Stack>
  );
}

export function PendingSettingsChanges() {
  const changes = useSettingsChanges();
  const { data: me } = useUser();
  return (
    <SectionCard
      title="Changes waiting for approval"
      description="Raising the second-approval threshold or the daily credit cap takes a second administrator."
    >
      {changes.isPending ? (
        <PageSpinner label="Loading changes" />
      ) : changes.isError ? (
        <LoadError what="changes" />
      ) : changes.data.length === 0 ? (
        <Text color="fg.muted">No changes are waiting.</Text>
      ) : (
        <Stack as="ul" gap="3" listStyleType="none" aria-label="Changes waiting for approval">
          {changes.data.map((change) => (
            <ChangeItem key={change.id} change={change} own={change.proposed_by === me?.id} />
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
