/**
 * Correct Result, on a completed match's admin page: the corrections of the match (a pending one with
 * Approve / Reject, or Withdraw for its proposer; one applying; the history) and, while none is pending or
 * applying, the form that proposes the right outcome (the other team, or abandoned; or a winner for an
 * abandoned match) with a reason of 10-200 characters. A proposal waits for another administrator (the
 * server answers 'A second administrator must approve this correction'); the rules are the database's.
 */
import { Button, HStack, RadioGroup, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { FormField } from '@/components/ui/form-field.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import {
  CORRECTION_REASON,
  correctionMessages,
  SECOND_ADMIN_FOR_CORRECTION,
  type ResultCorrection,
} from '@/domain/corrections.ts';
import type { Match } from '@/domain/entities.ts';
import { formatDateTime } from '@/domain/money.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useUser } from '@/lib/auth.ts';
import { matchTeams } from '@/features/admin/shared/lib/labels.ts';
import {
  useDecideResultCorrection,
  useProposeResultCorrection,
  useResultCorrections,
  type CorrectionDecision,
} from '../api/result-corrections.ts';

const ABANDON = 'abandon';

const statusText: Record<ResultCorrection['status'], string> = {
  pending: 'Waiting for a second administrator',
  rejected: 'Rejected',
  applying: 'Being applied: the bets are settled again',
  applied: 'Applied',
};

const outcomes = {
  approve: {
    done: 'Correction approved',
    said: 'The bets of this match are settled again.',
    failed: 'Failed to approve correction',
  },
  reject: { done: 'Correction rejected', said: 'The result stays as it is.', failed: 'Failed to reject correction' },
} as const;

function CorrectionItem({ match, correction, own }: { match: Match; correction: ResultCorrection; own: boolean }) {
  const decide = useDecideResultCorrection(match.id);
  // mutateAsync, not mutate's callbacks: the decision changes the match, whose new version reloads the list
  // this item is in, and mutate's callbacks do not run for an unmounted caller
  const send = (decision: CorrectionDecision['decision']) =>
    decide.mutateAsync({ id: correction.id, decision }).then(
      () => notify({ title: outcomes[decision].done, description: outcomes[decision].said }),
      (error) => notify({ title: outcomes[decision].failed, description: errorMessage(error), variant: 'destructive' }),
    );
  return (
    <Stack as="li" gap="1" borderWidth="1px" borderRadius="md" p="3" aria-label={`Correction #${correction.id}`}>
      <Text>
        <Text as="span" fontWeight="semibold">
          {correction.previous_result} → {correction.result}
        </Text>
      </Text>
      <Text fontSize="sm">Reason: {correction.reason}</Text>
      <Text fontSize="sm" color="fg.muted">
        Proposed by {own ? 'you' : correction.proposed_by_username} on {formatDateTime(correction.created_at)} ·{' '}
        {statusText[correction.status]}
      </Text>
      {correction.status === 'pending' && (
        <HStack gap="2" pt="1">
          {own ? (
            <Button size="xs" variant="outline" onClick={() => send('reject')} loading={decide.isPending}>
              Withdraw
            </Button>
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
      )}
    </Stack>
  );
}

function ProposeForm({ match }: { match: Match }) {
  const propose = useProposeResultCorrection(match.id);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const choices = [
    ...matchTeams(match)
      .filter((team) => team.id !== match.winning_team_id)
      .map((team) => ({ value: String(team.id), label: `${team.name} won` })),
    ...(match.winning_team_id === null ? [] : [{ value: ABANDON, label: 'Match abandoned' }]),
  ];

  const onSubmit = () => {
    const trimmed = reason.trim();
    if (trimmed.length < CORRECTION_REASON.min) return setError(correctionMessages.reasonMin);
    if (trimmed.length > CORRECTION_REASON.max) return setError(correctionMessages.reasonMax);
    setError(undefined);
    if (outcome === null) return notify({ title: correctionMessages.outcome, variant: 'destructive' });
    const target = outcome === ABANDON ? { abandon: true } : { winning_team_id: Number(outcome) };
    // mutateAsync: the pending proposal replaces this form in the card (mutate's callbacks would be skipped)
    propose.mutateAsync({ matchId: match.id, ...target, reason: trimmed }).then(
      () => notify({ title: 'Correction proposed', description: SECOND_ADMIN_FOR_CORRECTION }),
      (err) =>
        notify({ title: 'Failed to propose correction', description: errorMessage(err), variant: 'destructive' }),
    );
  };

  return (
    <Stack gap="3">
      <RadioGroup.Root
        value={outcome}
        onValueChange={(details) => setOutcome(details.value)}
        aria-label="Right result"
        colorPalette="orange"
      >
        <Stack gap="2">
          {choices.map((choice) => (
            <RadioGroup.Item key={choice.value} value={choice.value}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{choice.label}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </Stack>
      </RadioGroup.Root>
      <FormField label="Reason" error={error} helperText="Players see it: Result corrected: {reason}" required>
        <Textarea
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={CORRECTION_REASON.max}
          placeholder="Why the declared result was wrong"
        />
      </FormField>
      <Button colorPalette="orange" alignSelf="start" onClick={onSubmit} loading={propose.isPending}>
        Propose Correction
      </Button>
    </Stack>
  );
}

export function ResultCorrectionCard({ match }: { match: Match }) {
  const corrections = useResultCorrections(match);
  const { data: me } = useUser();
  const list = corrections.data ?? [];
  const running = list.some((correction) => correction.status === 'pending' || correction.status === 'applying');
  return (
    <SectionCard
      title="Correct Result"
      description="A wrong result can be corrected within 7 days of its declaration; a second administrator must approve."
      gap="4"
    >
      {list.length > 0 && (
        <Stack as="ul" gap="3" listStyleType="none" aria-label="Result corrections">
          {list.map((correction) => (
            <CorrectionItem
              key={correction.id}
              match={match}
              correction={correction}
              own={correction.proposed_by === me?.id}
            />
          ))}
        </Stack>
      )}
      {corrections.isSuccess && !running && match.settlement?.state === 'settled' && <ProposeForm match={match} />}
    </SectionCard>
  );
}
