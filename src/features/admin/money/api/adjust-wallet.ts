import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Transaction } from '@/domain/entities.ts';
import { formatRupees } from '@/domain/money.ts';
import { answer, client } from '@/lib/api-client.ts';
import { getRiskSettingsQueryOptions } from '@/features/admin/settings/api/get-risk-settings.ts';
import { invalidateUserMoney } from '@/features/admin/shared/api/invalidate.ts';

export interface AdjustWalletInput {
  userId: number;
  /** signed: positive credits, negative debits */
  amount: number;
  notes: string;
}

export interface AdjustWalletResult {
  transaction: Transaction;
  /** the toast of a credit that waits, pending, for a second admin; null when the wallet moved at once */
  pendingNotice: { title: string; description: string } | null;
}

/** POST /api/admin/users/{id}/wallet: an admin_adjustment ledger row (a large credit is pending). */
export function adjustWallet({ userId, amount, notes }: AdjustWalletInput): Promise<Transaction> {
  return answer(
    client.POST('/api/admin/users/{id}/wallet', { params: { path: { id: userId } }, body: { amount, notes } }),
  );
}

/** Names the settings' threshold for a second approval; without the settings, just says one is needed. */
async function pendingNotice(queryClient: QueryClient) {
  const settings = await queryClient.ensureQueryData(getRiskSettingsQueryOptions()).catch(() => null);
  return {
    title: 'Adjustment sent for approval',
    description: settings
      ? `A second administrator must approve adjustments of ${formatRupees(settings.adjustment_review_amount)} or more`
      : 'A second administrator must approve this adjustment',
  };
}

export function useAdjustWallet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AdjustWalletInput): Promise<AdjustWalletResult> => {
      const transaction = await adjustWallet(input);
      return { transaction, pendingNotice: transaction.status === 'pending' ? await pendingNotice(queryClient) : null };
    },
    onSuccess: () => invalidateUserMoney(queryClient),
  });
}
