/** Display texts of the back office: match types, statuses, teams with the fixed fallback. */
import type { Match, Team } from '@/domain/entities.ts';
import type { MatchType } from '@/domain/limits.ts';
import type { RiskSettings } from '@/domain/risk.ts';
import { fallbackTeam, type TeamRef } from '@/domain/teams.ts';

export const MATCH_TYPE_LABELS: Record<MatchType, string> = { t20: 'T20', odi: 'ODI', test: 'Test', ipl: 'IPL' };

export function matchTypeLabel(type: string): string {
  return MATCH_TYPE_LABELS[type as MatchType] ?? type.toUpperCase();
}

export function capitalize(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** 'bet_placed' → 'Bet Placed'. */
export function humanize(text: string): string {
  return text.split('_').map(capitalize).join(' ');
}

/** The team object when the answer embeds one, else the fixed table ('Team {id}' / 'T{id}'). */
export function teamOf(team: Team | TeamRef | null | undefined, id: number): TeamRef & { logo_url?: string | null } {
  return team ?? fallbackTeam(id);
}

export function matchTeams(match: Pick<Match, 'team1_id' | 'team2_id'> & Partial<Pick<Match, 'team1' | 'team2'>>) {
  return [teamOf(match.team1, match.team1_id), teamOf(match.team2, match.team2_id)] as const;
}

/** '1st' or '2nd'. */
export function inningsLabel(innings: number | null | undefined): string {
  return innings === 2 ? '2nd' : '1st';
}

/** The '1st Innings • Over 12.3' line of a live match (the over part only when present). */
export function liveStateLabel(match: Pick<Match, 'current_innings' | 'current_over'>): string {
  const over = match.current_over === null || match.current_over === undefined ? '' : ` • Over ${match.current_over}`;
  return `${inningsLabel(match.current_innings)} Innings${over}`;
}

export const MATCH_STATUS_PALETTE: Record<string, string> = { upcoming: 'blue', live: 'red', completed: 'green' };
export const USER_STATUS_PALETTE: Record<string, string> = { active: 'green', suspended: 'orange', banned: 'red' };
export const TRANSACTION_STATUS_PALETTE: Record<string, string> = {
  pending: 'yellow',
  completed: 'green',
  failed: 'red',
};
export const BET_STATUS_PALETTE: Record<string, string> = {
  placed: 'blue',
  won: 'green',
  lost: 'red',
  cancelled: 'gray',
};
export const BETTING_STATE_PALETTE: Record<string, string> = { open: 'green', suspended: 'orange', closed: 'gray' };

/** A placed bet reads 'In Progress'. */
export function betStatusLabel(status: string): string {
  return status === 'placed' ? 'In Progress' : capitalize(status);
}

/** The role as the sidebar shows it. */
export function roleLabel(role: string | undefined): string {
  return role === 'admin' ? 'Administrator' : 'Staff';
}

/** The name of each house-risk setting, as the Settings screen labels its field. */
export const SETTING_LABELS: Record<keyof RiskSettings, string> = {
  max_stake_per_bet: 'Maximum stake per bet (₹)',
  max_stake_per_player_match: 'Maximum stake per player per match (₹)',
  max_liability_per_match: 'Liability limit per match (₹)',
  betting_close_over: 'Close betting at over (2nd innings)',
  betting_pre_match_only: 'Pre-match betting only: close betting when a match starts',
  live_feed_stale_seconds: 'Pause bets after a quiet live score (seconds)',
  referral_bonuses_per_month: 'Referral bonuses per referrer (30 days)',
  adjustment_review_amount: 'Second admin approves credits from (₹)',
  admin_credit_per_day: 'Credits per admin per day (₹)',
  default_odds: 'Default odds of a new match',
};
