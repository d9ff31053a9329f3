import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DepositResponse } from '../../../domain/entities.ts';
import { api } from '../../../lib/api-client.ts';
import { transactionsQueryKey } from './get-transactions.ts';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `REF-{timestamp}-{4 random uppercase characters}` (spec §7.2). */
export function createDepositReference(now = Date.now(), random: () => number = Math.random): string {
  const suffix = Array.from({ length: 4 }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join('');
  return `REF-${now}-${suffix}`;
}

export interface DepositRequest {
  amount: number;
  paymentMethod: 'upi';
  reference: string;
}

/** POST /api/wallet/deposit: a pending deposit and the gateway page to send the browser to. */
export function createDeposit(input: DepositRequest): Promise<DepositResponse> {
  return api.post<DepositResponse>('/api/wallet/deposit', { ...input, status: 'pending' });
}

export function useCreateDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDeposit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: transactionsQueryKey }),
  });
}
