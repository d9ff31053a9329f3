/**
 * The live page's bet slip, loaded after the match card has painted: its form code (react-hook-form, the
 * resolver, the slip's fields) is the larger part of the page's JS and about half of its requests, which on a
 * phone's network pushed the first paint back. Until it arrives a card of the slip's size holds its place, so
 * nothing below it moves.
 */
import { Card } from '@chakra-ui/react';
import { deferredModule, useDeferredModule } from '@/components/ui/deferred-module.ts';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import type { Match, User } from '@/domain/entities.ts';

const slipModule = deferredModule(() => import('@/features/bets/components/bet-slip.tsx'));

/** About the height of the open slip on a phone (heading, team picker, amount, summary, button). */
const SLIP_HEIGHT = '30rem';

export function DeferredBetSlip({ match, user }: { match: Match; user: User | null | undefined }) {
  const slip = useDeferredModule(slipModule);
  if (!slip) {
    return (
      <Card.Root minH={SLIP_HEIGHT}>
        <PageSpinner label="Loading bet slip" />
      </Card.Root>
    );
  }
  return <slip.BetSlip match={match} user={user} />;
}
