import { useEffect, useState } from 'react';
import type { Match } from '../domain/entities.ts';
import { bettingAt } from '../domain/betting.ts';

/** Timers wider than a 32-bit delay fire at once: wait at most a day, then look again. */
const LONGEST_WAIT_MS = 86_400_000;

/**
 * The betting state of a match now, as the bet slip shows it: its `betting`, or 'paused' once its live score
 * has gone stale. Renders again when the pause time comes; a live update that moves it arrives as a new match.
 */
export function useBettingState(match: Pick<Match, 'betting' | 'betting_pauses_at'>) {
  const [now, setNow] = useState(() => Date.now());
  const pausesAt = match.betting_pauses_at === null ? null : Date.parse(match.betting_pauses_at);
  useEffect(() => {
    if (pausesAt === null || pausesAt <= now) return;
    const timer = setTimeout(
      () => setNow(Date.now()),
      Math.max(0, Math.min(pausesAt - Date.now() + 50, LONGEST_WAIT_MS)),
    );
    return () => clearTimeout(timer);
  }, [pausesAt, now]);
  return bettingAt(match, now);
}
