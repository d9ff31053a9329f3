/**
 * Reality checks: how long this play session has lasted and when the next check is due. The session's start
 * and the server's time come from GET /api/account/play-session; the device's clock only measures the time
 * since that answer arrived (a wrong device clock moves neither the start nor the checks).
 */
import { formatRupees } from './money.ts';

const MINUTE = 60_000;

export interface PlaySessionTimes {
  started_at: string;
  /** the server's time when it answered */
  now: string;
}

/** Milliseconds played at device time `now`, for an answer that arrived at device time `answeredAt`. */
export function playedMs(session: PlaySessionTimes, answeredAt: number, now: number): number {
  return Math.max(0, Date.parse(session.now) - Date.parse(session.started_at) + (now - answeredAt));
}

/** How many reality checks are due after `played` ms: one at each full interval; none without an interval. */
export function checksDue(played: number, intervalMinutes: number | null): number {
  return intervalMinutes === null ? 0 : Math.floor(played / (intervalMinutes * MINUTE));
}

function unit(count: number, name: string): string {
  return `${count} ${name}${count === 1 ? '' : 's'}`;
}

/** 3_900_000 → '1 hour 5 minutes'; 2_700_000 → '45 minutes'; 7_200_000 → '2 hours' (whole minutes). */
export function formatPlayingTime(played: number): string {
  const minutes = Math.floor(played / MINUTE);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return unit(rest, 'minute');
  return rest === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} ${unit(rest, 'minute')}`;
}

/** The header's clock: 3_900_000 → '1:05'. */
export function formatClock(played: number): string {
  const minutes = Math.floor(played / MINUTE);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** A session's net result with its sign: 4000 → '+₹4,000', -1500 → '−₹1,500', 0 → '₹0'. */
export function formatNet(net: number): string {
  if (net === 0) return formatRupees(0);
  return `${net > 0 ? '+' : '−'}${formatRupees(Math.abs(net))}`;
}
