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
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Match, User } from '../../../domain/entities.ts';
import { BET_ODDS, BET_QUICK_ADDS, BET_STEP, MIN_BET } from '../../../domain/limits.ts';
import { messages } from '../../../domain/messages.ts';
import { formatRupees } from '../../../domain/money.ts';
import { alreadyBacked, bettingTexts } from '../../../domain/risk.ts';
import { potentialWin } from '../../../domain/schemas.ts';
import { fallbackTeam } from '../../../domain/teams.ts';
import { AppIcon } from '../../../components/ui/icons.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
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

export function BetSlip({ match, user }: { match: Match; user: User | null | undefined }) {
  const [teamId, setTeamId] = useState<number | null>(null);
  const [amountText, setAmountText] = useState('');
  const placeBet = usePlaceBet();
  const navigate = useNavigate();
  const exclusion = activeExclusion(useAccountLimits({ enabled: Boolean(user) }).data);
  const backedTeamId = useMatchPosition(match.id, { enabled: Boolean(user) }).data?.team_id ?? null;
  const betting = useBettingState(match);
  const available = user?.available_balance ?? 0;
  const amount = amountText === '' ? 0 : Number(amountText);
  const teams = [
    match.team1 ?? { ...fallbackTeam(match.team1_id), logo_url: null },
    match.team2 ?? { ...fallbackTeam(match.team2_id), logo_url: null },
  ];
  const backedTeam = teams.find((team) => team.id === backedTeamId);
  const setAmount = (value: number) => setAmountText(value > 0 ? String(value) : '');

  const submit = () => {
    if (teamId === null) return;
    if (!Number.isInteger(amount) || amount < MIN_BET) {
      notify({ ...toastParts(messages.betMin), variant: 'destructive' });
      return;
    }
    if (amount > available) {
      notify({
        ...toastParts(messages.betInsufficient),
        variant: 'destructive',
        action: { label: 'Recharge', onClick: () => navigate(paths.wallet) },
      });
      return;
    }
    placeBet.mutate(
      { match_id: match.id, team_id: teamId, amount },
      {
        onSuccess: () => {
          notify({ title: 'Bet placed successfully', description: 'Your bet has been placed. Good luck!' });
          setAmountText('');
          setTeamId(null);
        },
        onError: (error) => notify({ title: 'Failed to place bet', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  };

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
        <Stack gap="5">
          {exclusion && <ExclusionNotice exclusion={exclusion} />}
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
                    onClick={() => setTeamId(selected ? null : team.id)}
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
              <Input
                value={amountText}
                inputMode="numeric"
                pattern="[0-9]*"
                placeholder="Enter amount"
                textAlign="center"
                onChange={(event) => setAmountText(event.target.value.replace(/\D/g, '').replace(/^0+(?=\d)/, ''))}
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

          <HStack justify="space-between" bg="bg.muted" rounded="md" px="4" py="3">
            <Text>Potential win</Text>
            <Text fontWeight="bold" fontSize="lg" data-testid="potential-win">
              {formatRupees(potentialWin(amount))}
            </Text>
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            Available balance: {formatRupees(available)}
            {heldForWithdrawals(user?.pending_withdrawals ?? 0)}
          </Text>

          {betting === 'open' ? (
            <Button
              colorPalette="green"
              size="lg"
              disabled={teamId === null || exclusion !== null}
              loading={placeBet.isPending}
              loadingText="Placing bet..."
              onClick={submit}
            >
              {teamId === null ? 'Select a team to bet' : 'Place Bet'}
            </Button>
          ) : (
            <Text role="status" textAlign="center" fontWeight="semibold" bg="bg.muted" rounded="md" px="4" py="3">
              {bettingTexts[betting]}
            </Text>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
