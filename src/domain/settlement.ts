/**
 * What players and admins read of a settlement: the toast a player gets as the result of their bets reaches
 * them, and the progress an admin sees while a completed match's bets are settled batch by batch.
 */
import type { BetResult, Settlement } from './entities.ts';
import { correctionNoticeTitle } from './corrections.ts';
import { formatRupees } from './money.ts';

/**
 * The toast of a player's result: `You won ₹{amount}` with the match, or `Your bet on {team} lost`; for a
 * corrected match, `The result of {match} was corrected` with the new outcome.
 */
export function betResultNotice(result: BetResult): { title: string; description: string } {
  if (result.corrected) {
    const { title } = betResultNotice({ ...result, corrected: undefined });
    return { title: correctionNoticeTitle(result.match), description: title };
  }
  switch (result.outcome) {
    case 'won':
      return { title: `You won ${formatRupees(result.amount)}`, description: result.match };
    case 'lost':
      return { title: `Your bet on ${result.team} lost`, description: result.match };
    case 'refunded':
      return {
        title: `Your stake of ${formatRupees(result.amount)} was refunded`,
        description: `${result.match} was abandoned`,
      };
  }
}

/** An admin's view of a completed match's settlement. */
export function settlementLabel({ state, settled, total }: Settlement): string {
  if (total === 0) return 'No bets to settle';
  return state === 'settled'
    ? `All ${total.toLocaleString('en-IN')} bets settled`
    : `Settling bets: ${settled.toLocaleString('en-IN')} of ${total.toLocaleString('en-IN')}`;
}
