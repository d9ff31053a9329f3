/**
 * The bet slip's fields: the two teams with their prices, the amount (typed, stepped, quick adds) and what the
 * bet would win at the price shown.
 */
import { Box, Button, Field, Group, HStack, IconButton, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useWatch } from 'react-hook-form';
import { AmountInput } from '@/components/ui/amount-input.tsx';
import { AppIcon } from '@/components/ui/icons.tsx';
import { alreadyBacked } from '@/domain/betting.ts';
import type { Team, User } from '@/domain/entities.ts';
import { BET_QUICK_ADDS, BET_STEP } from '@/domain/limits.ts';
import { formatRupees } from '@/domain/money.ts';
import { formatOdds, potentialWin } from '@/domain/price.ts';
import { heldForWithdrawals } from '@/lib/format.ts';
import { amountOf, type SlipForm } from './bet-slip-form.ts';

/** A team of the slip with the price a bet on it takes now. */
export type PickableTeam = Pick<Team, 'id' | 'name' | 'short_name'> & { odds: number };

/**
 * The two teams, each with its price ('MI 1.85'); once the player backs one, the other is unavailable and the
 * slip says which they backed.
 */
export function TeamPicker({
  teams,
  backedTeam,
  form,
}: {
  teams: PickableTeam[];
  backedTeam: PickableTeam | undefined;
  form: SlipForm;
}) {
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
                <Text fontWeight="bold">
                  {team.short_name} {formatOdds(team.odds)}
                </Text>
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
export function AmountField({ form }: { form: SlipForm }) {
  const amount = amountOf(useWatch({ control: form.control, name: 'amount' }));
  const setAmount = (value: number) => form.setValue('amount', value > 0 ? String(value) : '');
  return (
    <>
      <Field.Root>
        <Field.Label>Bet amount (₹)</Field.Label>
        <Group attached width="full">
          <IconButton
            aria-label="Decrease amount by 100"
            variant="outline"
            disabled={amount < BET_STEP}
            onClick={() => setAmount(amount - BET_STEP)}
          >
            <AppIcon name="minus" />
          </IconButton>
          <AmountInput field={form.register('amount')} pattern="[0-9]*" placeholder="Enter amount" textAlign="center" />
          <IconButton
            aria-label="Increase amount by 100"
            variant="outline"
            onClick={() => setAmount(amount + BET_STEP)}
          >
            <AppIcon name="plus" />
          </IconButton>
        </Group>
      </Field.Root>
      <HStack gap="2" wrap="wrap" role="group" aria-label="Quick add">
        {BET_QUICK_ADDS.map((add) => (
          <Button
            key={add}
            size="sm"
            variant="subtle"
            onClick={() => setAmount(amount + add)}
            aria-label={`Add ₹${add}`}
          >
            +{add}
          </Button>
        ))}
      </HStack>
    </>
  );
}

/**
 * Potential win at the price of the team picked (before a pick, at the price both teams share, else none)
 * and the balance the bet is checked against (the available one, as on the server).
 */
export function SlipSummary({
  form,
  user,
  teams,
}: {
  form: SlipForm;
  user: User | null | undefined;
  teams: PickableTeam[];
}) {
  const amount = amountOf(useWatch({ control: form.control, name: 'amount' }));
  const teamId = useWatch({ control: form.control, name: 'team_id' });
  const odds =
    teams.find((team) => team.id === teamId)?.odds ?? (teams[0].odds === teams[1].odds ? teams[0].odds : null);
  return (
    <>
      <HStack justify="space-between" bg="bg.muted" rounded="md" px="4" py="3">
        <Text>Potential win</Text>
        <Text fontWeight="bold" fontSize="lg" data-testid="potential-win">
          {odds === null ? '—' : formatRupees(potentialWin(amount, odds))}
        </Text>
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        Available balance: {formatRupees(user?.available_balance ?? 0)}
        {heldForWithdrawals(user?.pending_withdrawals ?? 0)}
      </Text>
    </>
  );
}
