/**
 * The price of a bet and the live score it is decided by, shared by the SPA and the API. Plain values, no
 * zod: the bet slip shows prices on a first screen. The database decides every bet by the same rules
 * (app.place_bet, app.set_match_odds, app.update_live, app.match_decided); tests/db/limits-agree.test.ts
 * checks the bounds, the messages and the rounding agree.
 */
import type { MatchType } from './limits.ts';

/** Decimal odds: a stake of ₹1,000 at 1.85 pays ₹1,850 if its team wins. Two decimals, within these. */
export const ODDS_RANGE = { min: 1.01, max: 100 } as const;

export const priceMessages = {
  oddsRange: `Odds must be between ${ODDS_RANGE.min.toFixed(2)} and ${ODDS_RANGE.max.toFixed(2)}`,
  oddsDecimals: 'Odds must have at most two decimals',
  oddsMissing: 'Send team1_odds, team2_odds or both',
  defaultOdds: `Default odds must be between ${ODDS_RANGE.min.toFixed(2)} and ${ODDS_RANGE.max.toFixed(2)}, with at most two decimals`,
  oddsChanged: 'Odds have changed',
  matchClosed: 'This match is closed',
  /** Shown with the over-round of a match's prices when it is below 100. */
  certainProfit: 'Players can back both teams for a certain profit',
  scoreFormat: 'Score must look like 145/3',
  battingFirst: 'Batting first must be one of the two teams',
} as const;

/** Whether `odds` is a price a match side may have: 1.01–100.00 with at most two decimals. */
export function isPrice(odds: number): boolean {
  return odds >= ODDS_RANGE.min && odds <= ODDS_RANGE.max && hasTwoDecimals(odds);
}

export function hasTwoDecimals(odds: number): boolean {
  return Math.abs(odds * 100 - Math.round(odds * 100)) < 1e-9;
}

/** 1.85 → '1.85', 3 → '3.00': prices always show two decimals. */
export function formatOdds(odds: number): string {
  return odds.toFixed(2);
}

/**
 * What a bet pays if its team wins: round(amount × odds), halves up, as the database rounds. Computed in
 * hundredths, so 1,010 × 1.05 is 1,060.5 (→ 1,061) and never 1,060.4999… as floating point has it.
 */
export function potentialWin(amount: number, odds: number): number {
  return Math.floor((amount * Math.round(odds * 100) + 50) / 100);
}

/**
 * 100 × (1/team1 odds + 1/team2 odds), to one decimal: the sum of the prices' implied probabilities. Below
 * 100, backing both sides in proportion to the prices pays whichever side wins (3.00 on both: 66.7).
 */
export function overroundPercent(team1Odds: number, team2Odds: number): number {
  return Math.round(1000 * (1 / team1Odds + 1 / team2Odds)) / 10;
}

/** The price of a side of a match. */
export function priceOf(match: { team1_id: number; team1_odds: number; team2_odds: number }, teamId: number): number {
  return teamId === match.team1_id ? match.team1_odds : match.team2_odds;
}

/** A live score as admins type it: runs, a slash, wickets 0–10 ('145/3'). */
export const SCORE_PATTERN = /^\d{1,4}\/(10|\d)$/;

/** Overs in one innings of a match type; a test innings has no limit (null). */
export const INNINGS_OVERS: Record<MatchType, number | null> = { t20: 20, ipl: 20, odi: 50, test: null };

/** The highest over a live update may carry: a test innings' (the others stop at their INNINGS_OVERS). */
export const MAX_OVER = 999;
