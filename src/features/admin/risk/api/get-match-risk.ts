import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MatchRisk } from '@/domain/risk.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

/**
 * How often an open admin match page refetches its risk view. Bets produce no match events (announcing each
 * bet would cost every bet and every player's stream), and the view is one cheap read of two book rows, so
 * the page polls while it is open and visible (TanStack Query pauses the interval in background tabs); match
 * changes (suspension, close, settlement) refetch it at once through the ['admin', 'matches'] key.
 */
export const RISK_REFRESH_MS = 5000;

/** GET /api/admin/matches/{id}/risk. */
export function getMatchRisk(matchId: number): Promise<MatchRisk> {
  return answer(client.GET('/api/admin/matches/{id}/risk', { params: { path: { id: matchId } } }));
}

export function getMatchRiskQueryOptions(matchId: number) {
  return queryOptions({ queryKey: adminKeys.matchRisk(matchId), queryFn: () => getMatchRisk(matchId) });
}

/** `live`: the match still takes bets or changes (not completed), so keep the view current. */
export function useMatchRisk(matchId: number, { live }: { live: boolean }) {
  return useQuery({ ...getMatchRiskQueryOptions(matchId), refetchInterval: live ? RISK_REFRESH_MS : false });
}
