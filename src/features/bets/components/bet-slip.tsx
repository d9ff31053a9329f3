/**
 * The bet slip: pick a team (pick it again to drop it; each shows its price), type digits only, quick adds
 * and a stepper of 100, potential win = amount × the price, and the minimum and balance checks before
 * sending. The bet is sent at the price shown; when the server refuses it because the price has changed
 * meanwhile, the slip says so with the new price (which the match's live updates usually bring first). The balance
 * shown and checked is the available one (wallet balance minus pending withdrawals), as on the server; the
 * insufficient-balance toast offers the way to the wallet. When the match's betting is suspended, closed or
 * paused for a stale live score (house risk), the slip says so in place of its button; the match's live
 * updates change it back. A player backs one team of a match: once they have, the other team is unavailable
 * and the slip says which they backed. During a time-out or self-exclusion (player protection) the slip says
 * so and until when, and does not send; offline, Place Bet waits for the connection.
 */
import { Button, Card, Text } from '@chakra-ui/react';
import { useWatch } from 'react-hook-form';
import { ExclusionNotice } from '@/components/exclusion-notice.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { OfflineHint } from '@/components/ui/offline.tsx';
import { useOnline } from '@/lib/use-online.ts';
import { bettingTexts } from '@/domain/betting.ts';
import type { Match, User } from '@/domain/entities.ts';
import { MIN_BET } from '@/domain/limits.ts';
import { formatRupees } from '@/domain/money.ts';
import { formatOdds, priceMessages } from '@/domain/price.ts';
import { activeExclusion } from '@/domain/protection.ts';
import { fallbackTeam } from '@/domain/teams.ts';
import { useAccountLimits } from '@/lib/account-limits.ts';
import { useBettingState } from '@/lib/use-betting-state.ts';
import { useMatchPosition } from '../api/get-match-position.ts';
import { AmountField, SlipSummary, TeamPicker } from './bet-slip-fields.tsx';
import { usePlaceFromSlip, useSlipForm } from './bet-slip-form.ts';

export function BetSlip({ match, user }: { match: Match; user: User | null | undefined }) {
  const form = useSlipForm();
  const teamId = useWatch({ control: form.control, name: 'team_id' });
  const { submit, pending, repriced } = usePlaceFromSlip(form, match, user);
  const exclusion = activeExclusion(useAccountLimits({ enabled: Boolean(user) }).data);
  const backedTeamId = useMatchPosition(match.id, { enabled: Boolean(user) }).data?.team_id ?? null;
  const betting = useBettingState(match);
  const online = useOnline();
  const teams = [
    { ...(match.team1 ?? fallbackTeam(match.team1_id)), odds: match.team1_odds },
    { ...(match.team2 ?? fallbackTeam(match.team2_id)), odds: match.team2_odds },
  ];
  const backedTeam = teams.find((team) => team.id === backedTeamId);
  const repricedTeam = teams.find((team) => team.id === repriced);

  return (
    <Card.Root as="section" aria-labelledby="bet-slip-heading">
      <Card.Header>
        <Text as="h2" id="bet-slip-heading" fontSize="lg" fontWeight="semibold">
          Place Your Bet
        </Text>
        <Text fontSize="sm" color="fg.muted">
          A bet keeps the odds it is placed at · minimum {formatRupees(MIN_BET)}
        </Text>
      </Card.Header>
      <Card.Body>
        <FormStack gap="5" noValidate onSubmit={submit}>
          {exclusion && <ExclusionNotice exclusion={exclusion} />}
          <TeamPicker teams={teams} backedTeam={backedTeam} form={form} />
          <AmountField form={form} />
          <SlipSummary form={form} user={user} teams={teams} />
          {repricedTeam && (
            <Text role="alert" color="fg.error" fontWeight="semibold">
              {priceMessages.oddsChanged}: {repricedTeam.short_name} is now {formatOdds(repricedTeam.odds)}
            </Text>
          )}
          {betting === 'open' ? (
            <>
              <Button
                type="submit"
                colorPalette="green"
                size="lg"
                disabled={teamId === null || exclusion !== null || !online}
                loading={pending}
                loadingText="Placing bet..."
              >
                {teamId === null ? 'Select a team to bet' : 'Place Bet'}
              </Button>
              <OfflineHint />
            </>
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
