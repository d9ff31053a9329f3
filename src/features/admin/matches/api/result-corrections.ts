import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CorrectResultInput, PendingCorrection, ResultCorrection } from '@/domain/corrections.ts';
import type { Match } from '@/domain/entities.ts';
import { answer, client } from '@/lib/api-client.ts';
import { adminKeys } from '@/features/admin/shared/api/keys.ts';

const correctionsKey = (matchId: number) => [...adminKeys.match(matchId), 'corrections'] as const;

/** GET /api/admin/matches/{id}/corrections: the match's result corrections, newest first. */
export function getResultCorrections(matchId: number): Promise<ResultCorrection[]> {
  return answer(client.GET('/api/admin/matches/{id}/corrections', { params: { path: { id: matchId } } }));
}

/** The match's corrections, read again whenever the match changes (a correction approved elsewhere). */
export function useResultCorrections(match: Match) {
  return useQuery(
    queryOptions({
      queryKey: [...correctionsKey(match.id), match.version],
      queryFn: () => getResultCorrections(match.id),
      placeholderData: keepPreviousData,
    }),
  );
}

/** POST /api/admin/matches/{id}/correct-result: a proposal, answered 202 (a second administrator must approve). */
export function proposeResultCorrection({
  matchId,
  ...body
}: CorrectResultInput & { matchId: number }): Promise<PendingCorrection> {
  return answer(client.POST('/api/admin/matches/{id}/correct-result', { params: { path: { id: matchId } }, body }));
}

export interface CorrectionDecision {
  id: number;
  decision: 'approve' | 'reject';
}

/** POST /api/admin/corrections/{id}/approve | reject: another admin applies it, or it is dropped. */
export function decideResultCorrection({ id, decision }: CorrectionDecision): Promise<ResultCorrection> {
  const options = { params: { path: { id } } };
  return answer(
    decision === 'approve'
      ? client.POST('/api/admin/corrections/{id}/approve', options)
      : client.POST('/api/admin/corrections/{id}/reject', options),
  );
}

/** Either write refreshes the match's corrections (started, not awaited: the item that asked may go). */
function useCorrectionWrite<I, O>(matchId: number, write: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: correctionsKey(matchId) }),
  });
}

export const useProposeResultCorrection = (matchId: number) => useCorrectionWrite(matchId, proposeResultCorrection);
export const useDecideResultCorrection = (matchId: number) => useCorrectionWrite(matchId, decideResultCorrection);
