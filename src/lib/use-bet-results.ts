import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notify } from '../components/ui/toaster.tsx';
import { betResultNotice } from '../domain/settlement.ts';
import { useUser } from './auth.ts';
import { announceMoneyMoved } from './cache-sync.ts';
import { subscribeToBetResults } from './match-updates.ts';

/**
 * While a player is signed in, the result of each of their bets reaches them as the settlement of its match
 * does (`You won ₹3,000`), and their balance, bets and ledger refresh then rather than when the whole match
 * has been settled, which on match day may be a minute later for the last of a hundred thousand players.
 */
export function useBetResults(): void {
  const queryClient = useQueryClient();
  const userId = useUser().data?.id;
  useEffect(() => {
    if (userId === undefined) return;
    return subscribeToBetResults(userId, (result) => {
      notify(betResultNotice(result));
      void announceMoneyMoved(queryClient);
    });
  }, [queryClient, userId]);
}
