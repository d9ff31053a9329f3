import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DepositResponse } from '@/domain/entities.ts';
import { notify } from '@/components/ui/toaster.tsx';
import { answer, client, errorMessage, type RequestBody } from '@/lib/api-client.ts';
import { transactionsQueryKey } from './get-transactions.ts';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The browser goes to the payment gateway 1.5 s after the deposit request is created. */
export const GATEWAY_REDIRECT_MS = 1500;

/** Sends the browser to the gateway's page (a full navigation). An object, so tests can replace `go`. */
export const gatewayRedirect = { go: (url: string) => window.location.assign(url) };

/** `REF-{timestamp}-{4 random uppercase characters}`. */
export function createDepositReference(now = Date.now(), random: () => number = Math.random): string {
  const suffix = Array.from({ length: 4 }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join('');
  return `REF-${now}-${suffix}`;
}

/** What the player asks for: the deposit's body less its status (always 'pending'). */
export type DepositRequest = Omit<RequestBody<'deposit'>, 'status'>;

/**
 * POST /api/wallet/deposit: a pending deposit and the gateway page to send the browser to. Posting the
 * reference of a pending deposit again answers that same deposit (how an abandoned payment is resumed).
 */
export function createDeposit(input: DepositRequest): Promise<DepositResponse> {
  return answer(client.POST('/api/wallet/deposit', { body: { ...input, status: 'pending' } }));
}

/**
 * Creates (or resumes) a deposit; on success toasts 'Deposit request created' and sends the browser to the
 * gateway after 1.5 s, on failure toasts 'Request failed'. These are the mutation's own callbacks
 * and a timer nobody clears, not a component's: closing the Recharge dialog or switching tab while the
 * request runs or during the 1.5 s must not lose the redirect and leave a pending deposit without its
 * payment page.
 */
export function useCreateDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDeposit,
    onSuccess: (deposit, input) => {
      notify({
        title: 'Deposit request created',
        description: `Reference #${deposit.reference_id ?? input.reference}. Awaiting confirmation.`,
      });
      setTimeout(() => gatewayRedirect.go(deposit.redirect_url), GATEWAY_REDIRECT_MS);
      return queryClient.invalidateQueries({ queryKey: transactionsQueryKey });
    },
    onError: (error) => notify({ title: 'Request failed', description: errorMessage(error), variant: 'destructive' }),
  });
}
