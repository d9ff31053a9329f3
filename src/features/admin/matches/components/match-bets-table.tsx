/**
 * A match's bets: User ID, Team (short name), Amount, Odds ('1.85x', each bet's own), Potential Win, Status, Placed At;
 * the count line counts every bet of the match (the server's count), the table shows the pages loaded so far.
 */
import { Stack } from '@chakra-ui/react';
import { LoadMoreButton, type MoreRows } from '@/components/ui/load-more-button.tsx';
import type { Bet } from '@/domain/entities.ts';
import { matchBetColumns } from '@/features/admin/shared/components/bet-columns.tsx';
import { DataTable } from '@/components/ui/data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';

export function MatchBetsTable({ bets, count, list }: { bets: readonly Bet[]; count: number; list: MoreRows }) {
  return (
    <SectionCard title="Match Bets" description={`${count} bets placed on this match`}>
      <Stack gap="3">
        <DataTable
          label="Match bets"
          rows={bets}
          columns={matchBetColumns}
          empty="No bets have been placed on this match yet."
        />
        <LoadMoreButton list={list} />
      </Stack>
    </SectionCard>
  );
}
