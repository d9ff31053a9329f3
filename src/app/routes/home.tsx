/**
 * Home (/ and /matches): hero, the first live match in detail, up to 3 upcoming matches, the 3
 * latest bets and a wallet overview. Visitors who are not signed in see the matches and a sign-in prompt.
 */
import { Button, Card, Container, Grid, HStack, Heading, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { User } from '@/domain/entities.ts';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import { paths } from '@/config/paths.ts';
import { useUser } from '@/lib/auth.ts';
import { RECENT_BETS, useBets } from '@/features/bets/api/get-bets.ts';
import { BETS_ERROR, BetList } from '@/features/bets/components/bet-list.tsx';
import { useMatches } from '@/features/matches/api/get-matches.ts';
import { useMatchUpdates } from '@/lib/use-match-updates.ts';
import { MatchDetailCard } from '@/features/matches/components/match-detail-card.tsx';
import { UpcomingMatchCard } from '@/features/matches/components/upcoming-match-card.tsx';
import { WalletOverview } from '@/features/wallet/components/wallet-overview.tsx';
import { Hero } from './home-hero.tsx';
import { LastUpdated } from '@/components/ui/offline.tsx';

export const NO_LIVE_MATCHES = 'No live matches at the moment. Check back soon or bet on upcoming matches.';
export const NO_UPCOMING_MATCHES = 'No upcoming matches available at the moment.';
export const MATCHES_ERROR = 'Error loading matches. Please try again later.';

/** A titled part of the page, with a link to the whole list beside the title when there is more. */
function Section({
  title,
  more,
  updatedAt,
  children,
}: {
  title: string;
  more?: { to: string; label: string };
  updatedAt?: number;
  children: ReactNode;
}) {
  return (
    <Stack as="section" gap="3" aria-label={title}>
      <HStack justify="space-between">
        <Heading as="h2" size="lg">
          {title}
        </Heading>
        {more && (
          <Link asChild color="blue.700" fontWeight="medium">
            <RouterLink to={more.to}>{more.label}</RouterLink>
          </Link>
        )}
      </HStack>
      {updatedAt !== undefined && <LastUpdated at={updatedAt} />}
      {children}
    </Stack>
  );
}

function PlayerColumn({ user }: { user: User }) {
  const bets = useBets(RECENT_BETS);
  useErrorToast(bets.error, 'Error loading bets');
  return (
    <>
      <Section title="Wallet">
        <WalletOverview user={user} />
      </Section>
      <Section title="Recent Bets" more={{ to: paths.myBets, label: 'My Bets' }} updatedAt={bets.dataUpdatedAt}>
        {bets.isPending ? (
          <PageSpinner label="Loading bets" />
        ) : bets.isError ? (
          <Text color="red.700">{BETS_ERROR}</Text>
        ) : (
          <BetList bets={bets.items ?? []} />
        )}
      </Section>
    </>
  );
}

function SignInPrompt() {
  return (
    <Card.Root>
      <Card.Body gap="3">
        <Heading as="h2" size="md">
          Ready to play?
        </Heading>
        <Text color="fg.muted">Sign in or register to place bets, track them and manage your wallet.</Text>
        <Button asChild colorPalette="blue" alignSelf="start">
          <RouterLink to={paths.auth}>Sign in to bet</RouterLink>
        </Button>
      </Card.Body>
    </Card.Root>
  );
}

function Dashboard({ user, userPending }: { user: User | null | undefined; userPending: boolean }) {
  const live = useMatches('live');
  const upcoming = useMatches('upcoming');
  useMatchUpdates();
  useErrorToast(live.error ?? upcoming.error, 'Error loading matches');
  const liveMatch = live.data?.[0];

  return (
    <Grid templateColumns={{ base: '1fr', lg: '2fr 1fr' }} gap="8" mt="8">
      <Stack gap="8" minW="0">
        <Section title="Live Match" updatedAt={live.dataUpdatedAt}>
          {live.isPending ? (
            <PageSpinner label="Loading live matches" />
          ) : live.isError ? (
            <Text color="red.700">{MATCHES_ERROR}</Text>
          ) : liveMatch ? (
            <Stack gap="3">
              <MatchDetailCard match={liveMatch} />
              <Button asChild colorPalette="green" alignSelf={{ base: 'stretch', sm: 'start' }}>
                <RouterLink to={paths.liveMatch(liveMatch.id)}>Place a Bet</RouterLink>
              </Button>
            </Stack>
          ) : (
            <Text color="fg.muted">{NO_LIVE_MATCHES}</Text>
          )}
        </Section>
        <Section
          title="Upcoming Matches"
          more={{ to: paths.matches, label: 'View All' }}
          updatedAt={upcoming.dataUpdatedAt}
        >
          {upcoming.isPending ? (
            <PageSpinner label="Loading upcoming matches" />
          ) : upcoming.isError ? (
            <Text color="red.700">{MATCHES_ERROR}</Text>
          ) : upcoming.data.length === 0 ? (
            <Text color="fg.muted">{NO_UPCOMING_MATCHES}</Text>
          ) : (
            <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
              {upcoming.data.slice(0, 3).map((match) => (
                <UpcomingMatchCard key={match.id} match={match} />
              ))}
            </SimpleGrid>
          )}
        </Section>
      </Stack>
      <Stack gap="8" minW="0">
        {userPending ? <PageSpinner /> : user ? <PlayerColumn user={user} /> : <SignInPrompt />}
      </Stack>
    </Grid>
  );
}

export function HomeRoute() {
  const { data: user, isPending } = useUser();
  return (
    <Container maxW="6xl" py={{ base: '4', md: '8' }}>
      <Hero />
      <Dashboard user={user} userPending={isPending} />
    </Container>
  );
}
