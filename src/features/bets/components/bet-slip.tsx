/**
 * The bet slip: pick a team (pick it again to drop it), type digits only, quick adds and a
 * stepper of 100, potential win = amount × 3, and the minimum and balance checks before sending. The balance
 * shown and checked is the available one (wallet balance minus pending withdrawals), as on the server; the
 * insufficient-balance toast offers the way to the wallet. When the match's betting is suspended, closed or
 * paused for a stale live score (house risk), the slip says so in place of its button; the match's live
 * updates change it back. A player backs one team of a match: once they have, the other team is unavailable
 * and the slip says which they backed. During a time-out or self-exclusion (player protection) the slip says
 * so and until when, and does not send.
 */
import { Box, Button, Card, Field, Group, HStack, IconButton, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { useNavigate } from 'react-router';
import type { Match, Team, User } from '../../../domain/entities.ts';
import { BET_ODDS, BET_QUICK_ADDS, BET_STEP, MIN_BET } from '../../../domain/limits.ts';
import { messages } from '../../../domain/messages.ts';
import { formatRupees } from '../../../domain/money.ts';
import { alreadyBacked, bettingTexts } from '../../../domain/risk.ts';
import { betSlipSchema, potentialWin } from '../../../domain/schemas.ts';
import { fallbackTeam } from '../../../domain/teams.ts';
import { FormStack } from '../../../components/ui/form-stack.tsx';
import { AppIcon } from '../../../components/ui/icons.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { digitsOnlyChange } from '../../../lib/digits-only.ts';
import { heldForWithdrawals } from '../../../lib/format.ts';
import { useBettingState } from '../../../lib/use-betting-state.ts';
import { activeExclusion } from '../../../domain/protection.ts';
import { useAccountLimits } from '../../../lib/account-limits.ts';
import { ExclusionNotice } from '../../../components/exclusion-notice.tsx';
import { useMatchPosition } from '../api/get-match-position.ts';
import { usePlaceBet } from '../api/place-bet.ts';

/** 'Title: description' split into a toast's two lines. */
function toastParts(text: string): { title: string; description: string } {
  const at = text.indexOf(': ');
  return { title: text.slice(0, at), description: text.slice(at + 2) };
}

type SlipInput = z.input<typeof betSlipSchema>;
type SlipOutput = z.output<typeof betSlipSchema>;
type SlipForm = UseFormReturn<SlipInput, unknown, SlipOutput>;
type PickableTeam = Pick<Team, 'id' | 'name' | 'short_name'>;

const empty: SlipInput = { team_id: null, amount: '' };

/** The amount typed so far as a number (0 while empty). */
function amountOf(text: unknown): number {
  return text === '' || text === undefined ? 0 : Number(text);
}

/** The two teams; once the player backs one, the other is unavailable and the slip says which they backed. */
function TeamPicker({ teams, backedTeam, form }: { teams: PickableTeam[]; backedTeam: PickableTeam | undefined; form: SlipForm }) {
  const teamId = useWatch({ control: form.control, name: 'team_id' });
  return (
    <Box role="group" aria-label="Select a team">
      <SimpleGrid columns={2} gap="3">
        {teams.map((team) => {
          const selected = team.id === teamId;
          return (
            <Button
              key={team.id}
              aria-pressed={selected}
              disabled={backedTeam !== undefined && team.id !== backedTeam.id}
              variant={selected ? 'solid' : 'outline'}
              colorPalette="blue"
              height="auto"
              py="3"
              whiteSpace="normal"
              onClick={() => form.setValue('team_id', selected ? null : team.id)}
            >
              <Stack gap="0">
                <Text fontWeight="bold">{team.short_name}</Text>
                <Text fontSize="xs">{team.name}</Text>
              </Stack>
            </Button>
          );
        })}
      </SimpleGrid>
      {backedTeam && (
        <Text fontSize="sm" color="fg.muted" mt="2" role="status">
          {alreadyBacked(backedTeam.name)}
        </Text>
      )}
    </Box>
  );
}

/** The amount: digits only as typed, a stepper of 100 and the quick adds. */
function AmountField({ form }: { form: SlipForm }) {
  const amount = amountOf(useWatch({ control: form.control, name: 'amount' }));
  const setAmount = (value: number) => form.setValue('amount', value > 0 ? String(value) : '');
  const field = form.register('amount');
  return (
    <>
      <Field.Root>
        <Field.Label>Bet amount (₹)</Field.Label>
        <Group attached width="full">
          <IconButton aria-label="Decrease amount by 100" variant="outline" disabled={amount < BET_STEP} onClick={() => setAmount(amount - BET_STEP)}>
            <AppIcon name="minus" />
          </IconButton>
          <Input
            {...field}
            onChange={digitsOnlyChange(field.onChange)}
            inputMode="numeric"
            pattern="[0-9]*"
            placeholder="Enter amount"
            textAlign="center"
          />
          <IconButton aria-label="Increase amount by 100" variant="outline" onClick={() => setAmount(amount + BET_STEP)}>
            <AppIcon name="plus" />
          </IconButton>
        </Group>
      </Field.Root>
      <HStack gap="2" wrap="wrap" role="group" aria-label="Quick add">
        {BET_QUICK_ADDS.map((add) => (
          <Button key={add} size="sm" variant="subtle" onClick={() => setAmount(amount + add)} aria-label={`Add ₹${add}`}>
            +{add}
          </Button>
        ))}
      </HStack>
    </>
  );
}

/** Potential win and the balance the bet is checked against (the available one, as on the server). */
function SlipSummary({ form, user }: { form: SlipForm; user: User | null | undefined }) {
  const amount = amountOf(useWatch({ control: form.control, name: 'amount' }));
  return (
    <>
      <HStack justify="space-between" bg="bg.muted" rounded="md" px="4" py="3">
        <Text>Potential win</Text>
        <Text fontWeight="bold" fontSize="lg" data-testid="potential-win">
          {formatRupees(potentialWin(amount))}
        </Text>
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        Available balance: {formatRupees(user?.available_balance ?? 0)}
        {heldForWithdrawals(user?.pending_withdrawals ?? 0)}
      </Text>
    </>
  );
}

/** Sends a valid slip unless the balance cannot cover it; an invalid amount is told in a toast. */
function usePlaceFromSlip(form: SlipForm, match: Match, user: User | null | undefined) {
  const placeBet = usePlaceBet();
  const navigate = useNavigate();
  const place = ({ team_id, amount }: SlipOutput) => {
    if (amount > (user?.available_balance ?? 0)) {
      return notify({
        ...toastParts(messages.betInsufficient),
        variant: 'destructive',
        action: { label: 'Recharge', onClick: () => navigate(paths.wallet) },
      });
    }
    placeBet.mutate(
      { match_id: match.id, team_id, amount },
      {
        onSuccess: () => {
          notify({ title: 'Bet placed successfully', description: 'Your bet has been placed. Good luck!' });
          form.reset(empty);
        },
        onError: (error) => notify({ title: 'Failed to place bet', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  };
  const refuse = () => notify({ ...toastParts(messages.betMin), variant: 'destructive' });
  return { submit: form.handleSubmit(place, refuse), pending: placeBet.isPending };
}

export function BetSlip({ match, user }: { match: Match; user: User | null | undefined }) {
  const form = useForm<SlipInput, unknown, SlipOutput>({ resolver: zodResolver(betSlipSchema), defaultValues: empty });
  const teamId = useWatch({ control: form.control, name: 'team_id' });
  const { submit, pending } = usePlaceFromSlip(form, match, user);
  const exclusion = activeExclusion(useAccountLimits({ enabled: Boolean(user) }).data);
  const backedTeamId = useMatchPosition(match.id, { enabled: Boolean(user) }).data?.team_id ?? null;
  const betting = useBettingState(match);
  const teams = [match.team1 ?? fallbackTeam(match.team1_id), match.team2 ?? fallbackTeam(match.team2_id)];
  const backedTeam = teams.find((team) => team.id === backedTeamId);

  return (
    <Card.Root as="section" aria-labelledby="bet-slip-heading">
      <Card.Header>
        <Text as="h2" id="bet-slip-heading" fontSize="lg" fontWeight="semibold">
          Place Your Bet
        </Text>
        <Text fontSize="sm" color="fg.muted">
          Fixed odds {BET_ODDS.toFixed(1)}x · minimum {formatRupees(MIN_BET)}
        </Text>
      </Card.Header>
      <Card.Body>
        <FormStack gap="5" noValidate onSubmit={submit}>
          {exclusion && <ExclusionNotice exclusion={exclusion} />}
          <TeamPicker teams={teams} backedTeam={backedTeam} form={form} />
          <AmountField form={form} />
          <SlipSummary form={form} user={user} />
          {betting === 'open' ? (
            <Button type="submit" colorPalette="green" size="lg" disabled={teamId === null || exclusion !== null} loading={pending} loadingText="Placing bet...">
              {teamId === null ? 'Select a team to bet' : 'Place Bet'}
            </Button>
          ) : (
            <Text role="status" textAlign="center" fontWeight="semibold" bg="bg.muted" rounded="md" px="4" py="3">
              {bettingTexts[betting]}
            </Text>
          )}
        </FormStack>
      </Card.Body>
    </Card.Root>
  );
}
