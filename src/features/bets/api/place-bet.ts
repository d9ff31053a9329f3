import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Bet } from '@/domain/entities.ts';
import { potentialWin, priceMessages } from '@/domain/price.ts';
import { answer, ApiError, client, type RequestBody } from '@/lib/api-client.ts';
import { announceMatchChange, announceMoneyMoved } from '@/lib/cache-sync.ts';
import { betsQueryKey } from './get-bets.ts';

/** The bet's body less potential_win, which follows from the amount and the price the slip showed. */
export type PlaceBetInput = Omit<RequestBody<'placeBet'>, 'odds' | 'potential_win'> & {
  /** the price the slip showed for the team */
  odds: number;
};

/**
 * POST /api/bets with the price the slip showed and potential_win = amount × that price: the server takes the
 * bet only at its current price, else answers 409 'Odds have changed'.
 */
export function placeBet({ match_id, team_id, amount, odds }: PlaceBetInput): Promise<Bet> {
  return answer(
    client.POST('/api/bets', { body: { match_id, team_id, amount, odds, potential_win: potentialWin(amount, odds) } }),
  );
}

/** Whether a bet was refused because the price it was sent at is no longer the match's. */
export const isOddsChanged = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && error.body?.message === priceMessages.oddsChanged;

/**
 * Reads the match's current prices after a refusal for a stale price (its live event may not have arrived)
 * and writes them into every cached view of the match, so the slip shows the new price.
 */
export async function refreshPrices(queryClient: ReturnType<typeof useQueryClient>, matchId: number): Promise<void> {
  announceMatchChange(
    queryClient,
    await answer(client.GET('/api/matches/{id}', { params: { path: { id: matchId } } })),
  );
}

/** Refreshes the bets, the ledger and the balance after a bet. */
export function usePlaceBet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeBet,
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: betsQueryKey }), announceMoneyMoved(queryClient)]),
  });
}
