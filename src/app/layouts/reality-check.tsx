/**
 * Reality checks: after each interval of play (the player's choice, from the server) a dialog says how long
 * they have played and the session's net result, asked afresh from the server when it opens. It stays until
 * the player answers; the checks due until then count as seen. A page opened mid-interval waits for the next
 * one, and a new play session (after 30 minutes away) counts from its own start. The dialog loads after the
 * first paint.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { deferredModule, useDeferredModule } from '@/components/ui/deferred-module.ts';
import { paths } from '@/config/paths.ts';
import { checksDue } from '@/domain/reality-check.ts';
import { usePlayTime } from '@/lib/play-session.ts';

const realityCheckDialog = deferredModule(() => import('./reality-check-dialog.tsx'));

interface Seen {
  /** the play session's start */
  start: string;
  /** the checks of it already shown (or due when the page opened) */
  count: number;
}

export function RealityCheck() {
  const navigate = useNavigate();
  const { session, played, refetch } = usePlayTime(true);
  const dialog = useDeferredModule(realityCheckDialog);
  const [seen, setSeen] = useState<Seen | null>(null);
  // the time played when the check showing now came due (null: none showing)
  const [showing, setShowing] = useState<number | null>(null);

  const due = session ? checksDue(played, session.interval_minutes) : 0;
  if (session && (seen === null || Date.parse(session.started_at) > Date.parse(seen.start))) {
    setSeen({ start: session.started_at, count: due });
  } else if (session && seen && due > seen.count) {
    setSeen({ start: seen.start, count: due });
    setShowing(played);
  }

  const open = showing !== null;
  useEffect(() => {
    if (open) void refetch(); // the figures as they are now
  }, [open, refetch]);

  if (showing === null || !dialog || !session) return null;
  return (
    <dialog.RealityCheckDialog
      played={showing}
      session={session}
      onContinue={() => setShowing(null)}
      onTakeBreak={() => {
        setShowing(null);
        void navigate(`${paths.responsibleGambling}#take-a-break`);
      }}
    />
  );
}
