/**
 * The Books screen: the house's books for a range of IST days (this month so far unless the address says
 * ?from=&to=), read from GET /api/admin/books — the totals, the house's result per day as a chart, and each
 * match's line (a settlement, or a correction as a line of its own), newest first, a page at a time, with
 * the range's CSV to download.
 */
import { Box, Button, Card, Heading, HStack, Input, Link, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { LoadMoreButton } from '@/components/ui/load-more-button.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import { adminPaths } from '@/config/paths.ts';
import { booksRangeSchema, type Books, type BooksMatch, type BooksRange } from '@/domain/books.ts';
import { formatDateTime, formatRupees } from '@/domain/money.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { DataTable, type Column } from '@/components/ui/data-table.tsx';
import { LoadError } from '@/components/ui/load-error.tsx';
import { PageHeader } from '@/features/admin/shared/components/page-header.tsx';
import { downloadBooks, istToday, useBooks } from '../api/get-books.ts';
import { resultColor } from '../lib/result-color.ts';

const HouseResultChart = lazy(() => import('../components/house-result-chart.tsx'));

/** Match lines shown at first, and added by each Load More. */
export const BOOKS_PAGE = 20;

/** This month so far, in IST days. */
function thisMonth(now = new Date()): BooksRange {
  const to = istToday(now);
  return { from: `${to.slice(0, 8)}01`, to };
}

type Line = BooksMatch & { id: number };

const columns: Column<Line>[] = [
  {
    header: 'Match',
    cell: (line) => (
      <Link asChild fontWeight="semibold">
        <RouterLink to={adminPaths.match(line.match_id)}>
          {line.team1} vs {line.team2}
        </RouterLink>
      </Link>
    ),
  },
  { header: 'Settled', cell: (line) => formatDateTime(line.settled_at), nowrap: true },
  { header: 'Bets', cell: (line) => line.bets, end: true },
  { header: 'Stakes', cell: (line) => formatRupees(line.stakes), end: true },
  { header: 'Paid', cell: (line) => formatRupees(line.paid), end: true },
  { header: 'Refunded', cell: (line) => formatRupees(line.refunded), end: true },
  {
    header: 'House result',
    cell: (line) => formatRupees(line.house_result),
    end: true,
    cellProps: (line) => ({ color: resultColor(line.house_result), fontWeight: 'semibold' }),
  },
];

function RangeForm({ range, onChange }: { range: BooksRange; onChange: (range: BooksRange) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<BooksRange>({ resolver: zodResolver(booksRangeSchema), values: range });
  return (
    <FormStack onSubmit={handleSubmit(onChange)} noValidate aria-label="Range of the books" gap="3">
      <HStack gap="3" align="end" flexWrap="wrap">
        <Box>
          <FormField label="From">
            <Input type="date" {...register('from')} />
          </FormField>
        </Box>
        <Box>
          <FormField label="To">
            <Input type="date" {...register('to')} />
          </FormField>
        </Box>
        <Button type="submit" colorPalette="blue">
          Show
        </Button>
      </HStack>
      {/* one message for the range */}
      {(errors.from ?? errors.to) && (
        <Text color="fg.error" role="alert">
          {(errors.from ?? errors.to)?.message}
        </Text>
      )}
    </FormStack>
  );
}

function Totals({ totals }: { totals: Books['totals'] }) {
  const figures: [string, number, string?][] = [
    ['House result', totals.house_result, 'Stakes − paid − refunded'],
    ['Stakes', totals.stakes, `${totals.bets} bets settled`],
    ['Paid', totals.paid],
    ['Refunded', totals.refunded],
    ['Deposits', totals.deposits],
    ['Withdrawals', totals.withdrawals],
    ['Admin credits', totals.admin_credits, 'Net of debits'],
    ['Referral bonuses', totals.referral_bonuses],
  ];
  return (
    <SimpleGrid columns={{ base: 2, lg: 4 }} gap="4">
      {figures.map(([label, value, help]) => (
        <Card.Root key={label} size="sm">
          <Card.Body>
            <Stat.Root>
              <Stat.Label>{label}</Stat.Label>
              <Stat.ValueText color={label === 'House result' ? resultColor(value) : undefined}>
                {formatRupees(value)}
              </Stat.ValueText>
              {help && <Stat.HelpText>{help}</Stat.HelpText>}
            </Stat.Root>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}

function MatchLines({ matches }: { matches: BooksMatch[] }) {
  const [shown, setShown] = useState(BOOKS_PAGE);
  const lines = matches.slice(0, shown).map((line, index) => ({ ...line, id: index }));
  return (
    <Stack gap="3">
      <DataTable
        label="Matches"
        rows={lines}
        columns={columns}
        framed
        empty="No match was settled in this range"
        rowTestId={(line) => `books-match-${line.match_id}`}
      />
      <LoadMoreButton
        list={{
          hasNextPage: shown < matches.length,
          isFetchingNextPage: false,
          fetchNextPage: () => setShown(shown + BOOKS_PAGE),
        }}
      />
    </Stack>
  );
}

export function BooksRoute() {
  const [params, setParams] = useSearchParams();
  const fallback = thisMonth();
  const requested = booksRangeSchema.safeParse({ from: params.get('from'), to: params.get('to') });
  const range = requested.success ? requested.data : fallback;
  const books = useBooks(range);
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadBooks(range);
    } catch (failure) {
      notify({ title: 'Download failed', description: errorMessage(failure), variant: 'destructive' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Box>
      <PageHeader
        title="Books"
        actions={
          <Button variant="outline" colorPalette="blue" loading={downloading} onClick={() => void download()}>
            Download CSV
          </Button>
        }
      />
      <Stack gap="6">
        <RangeForm range={range} onChange={(next) => setParams(next)} />
        {books.isPending ? (
          <PageSpinner label="Loading the books" />
        ) : books.isError ? (
          <LoadError what="the books" />
        ) : (
          <>
            <Totals totals={books.data.totals} />
            <Card.Root>
              <Card.Header>
                <Heading size="md">House result per day</Heading>
              </Card.Header>
              <Card.Body role="figure" aria-label="House result per day">
                <Suspense fallback={<PageSpinner label="Loading the chart" />}>
                  <HouseResultChart days={books.data.days} />
                </Suspense>
              </Card.Body>
            </Card.Root>
            <Stack gap="3">
              <Heading as="h2" size="md">
                Matches
              </Heading>
              {/* a new range starts again at its first page */}
              <MatchLines key={`${range.from}/${range.to}`} matches={books.data.matches} />
            </Stack>
          </>
        )}
      </Stack>
    </Box>
  );
}
