import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Bet } from '../../../domain/entities.ts';
import { BET_ODDS, potentialWin } from '../../../domain/limits.ts';
import { api } from '../../../lib/api-client.ts';
import { announceMoneyMoved } from '../../../lib/cache-sync.ts';
import { betsQueryKey } from './get-bets.ts';

export interface PlaceBetInput {
  match_id: number;
  team_id: number;
  amount: number;
}

/** POST /api/bets with odds 3 and potential_win = amount × 3 (the server recomputes both). */
export function placeBet({ match_id, team_id, amount }: PlaceBetInput): Promise<Bet> {
  return api.post<Bet>('/api/bets', { match_id, team_id, amount, odds: BET_ODDS, potential_win: potentialWin(amount) });
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
