/**
 * Search, a status filter and the All/Upcoming/Live/Completed tabs (the two drive the same
 * filter), a grid of match cards, and the empty states.
 */
import { Box, Button, HStack, NativeSelect, SimpleGrid } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { useErrorToast } from '@/components/ui/use-error-toast.ts';
import type { Match } from '@/domain/entities.ts';
import { useAdminMatches } from '../api/get-admin-matches.ts';
import { useMatchUpdates } from '@/lib/use-match-updates.ts';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { ListSearch, ListTabs } from '@/features/admin/shared/components/list-controls.tsx';
import { MatchCard } from '../components/match-card.tsx';
import { PageHeader } from '@/features/admin/shared/components/page-header.tsx';
import { adminPaths } from '@/config/paths.ts';
import { matchTeams, matchTypeLabel } from '@/features/admin/shared/lib/labels.ts';

const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'upcoming', label: 'Upcoming' },
  { value: 'live', label: 'Live' },
  { value: 'completed', label: 'Completed' },
] as const;
type Filter = (typeof FILTERS)[number]['value'];

function matchesSearch(match: Match, search: string): boolean {
  if (!search) return true;
  const [team1, team2] = matchTeams(match);
  const haystack = [
    `#${match.id}`,
    String(match.id),
    team1.name,
    team1.short_name,
    team2.name,
    team2.short_name,
    match.venue ?? '',
    matchTypeLabel(match.match_type),
    match.status,
  ]
    .join(' ')
    .toLowerCase();
  return haystack.includes(search.toLowerCase());
}

export function MatchesRoute() {
  const { data: matches, isPending, error } = useAdminMatches();
  useMatchUpdates();
  useErrorToast(error, 'Error loading matches');
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('all');

  const shown = useMemo(
    () =>
      (matches ?? []).filter(
        (match) => (filter === 'all' || match.status === filter) && matchesSearch(match, search.trim()),
      ),
    [matches, filter, search],
  );

  return (
    <Box>
      <PageHeader
        title="Matches"
        actions={
          <Button asChild colorPalette="blue">
            <RouterLink to={adminPaths.newMatch}>New Match</RouterLink>
          </Button>
        }
      />
      <HStack gap="3" mb="4" flexWrap="wrap">
        <ListSearch what="matches" value={search} onChange={setSearch} />
        <NativeSelect.Root maxW="48" bg="white">
          <NativeSelect.Field
            aria-label="Filter by status"
            value={filter}
            onChange={(event) => setFilter(event.target.value as Filter)}
          >
            {FILTERS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.value === 'all' ? 'All statuses' : option.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
      <ListTabs tabs={FILTERS} value={filter} onChange={setFilter} />
      {isPending ? (
        <PageSpinner label="Loading matches" />
      ) : error ? (
        <Box color="fg.error">Error loading matches. Please try again later.</Box>
      ) : shown.length === 0 ? (
        <EmptyState
          title="No matches found"
          description={
            search.trim() || filter !== 'all'
              ? 'Try adjusting your search filters.'
              : 'No matches have been created yet.'
          }
          action={
            <Button asChild colorPalette="blue">
              <RouterLink to={adminPaths.newMatch}>Create New Match</RouterLink>
            </Button>
          }
        />
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
          {shown.map((match) => (
            <MatchCard key={match.id} match={match} />
          ))}
        </SimpleGrid>
      )}
    </Box>
  );
}
