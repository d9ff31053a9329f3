/**
 * Whether a match takes bets, and what the bet slip says when it does not (house risk).
 * Plain values, no zod: the bet slip is on a first screen, and zod loads there only after the first paint.
 */

/** `betting` of a match: closed wins over suspended (completed, pre-match-only and started, past the close over). */
export const BETTING_STATES = ['open', 'suspended', 'closed'] as const;
export type BettingState = (typeof BETTING_STATES)[number];

/** What the bet slip shows instead of its button. */
export const bettingTexts = {
  suspended: 'Betting is suspended for this match',
  closed: 'Betting is closed',
  paused: 'Betting is paused until the live score is updated',
} as const;

/**
 * Whether a match takes bets at `now`: its `betting` state, or 'paused' once `betting_pauses_at` has passed
 * (its live score is stale; the next live update moves that time and reopens it). The server decides every
 * bet by the same rule; this is what the slip shows meanwhile.
 */
export function bettingAt(
  match: { betting: BettingState; betting_pauses_at: string | null },
  now: number,
): keyof typeof bettingTexts | 'open' {
  if (match.betting !== 'open') return match.betting;
  return match.betting_pauses_at !== null && Date.parse(match.betting_pauses_at) <= now ? 'paused' : 'open';
}

/** A player backs one side of a match: their first bet's team. */
export const alreadyBacked = (teamName: string) => `You have already backed ${teamName} in this match`;
