/**
 * POST /api/account/limit-prompt: the player's one answer to the deposit-limit prompt before their first
 * deposit (a limit, or 'Not now'). It answers the protection after it, which replaces the cached one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LimitPromptAnswer } from '@/domain/protection-schemas.ts';
import { answer, client } from '@/lib/api-client.ts';
import { accountLimitsKey } from '@/lib/account-limits.ts';

export function useAnswerLimitPrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: LimitPromptAnswer) => answer(client.POST('/api/account/limit-prompt', { body: choice })),
    onSuccess: (limits) => queryClient.setQueryData(accountLimitsKey(), limits),
  });
}
