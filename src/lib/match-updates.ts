/**
 * Live match updates reach the page without waiting for the 30 s poll (README "Live updates"). Each
 * event is the changed match itself, as GET /api/matches/{id} answers it.
 *
 * Transport: Supabase Realtime Broadcast (topic `matches`) when VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY are set — the hosted setup; otherwise the API's Server-Sent Events stream
 * `GET /api/live/matches` (local runtime, fed by Postgres LISTEN/NOTIFY), which the browser resumes with
 * Last-Event-ID after a drop. Either way ONE connection per tab is shared by every subscriber (browsers
 * allow only six HTTP/1.1 connections per origin), opened with the first subscriber and closed with the
 * last. Polling stays as the fallback.
 */
import type { Match } from '../domain/entities.ts';

/** `null` means "changes may have been missed" (a gap the server could not replay): refetch once. */
type Listener = (match: Match | null) => void;
type Close = () => void;

const listeners = new Set<Listener>();
let close: Close | undefined;

function publish(match: Match | null) {
  for (const listener of listeners) listener(match);
}

function openEventSource(): Close {
  if (typeof EventSource === 'undefined') return () => {}; // no push here: the poll still refreshes
  const source = new EventSource('/api/live/matches');
  source.addEventListener('match', (event) => publish(JSON.parse((event as MessageEvent<string>).data)));
  source.addEventListener('gap', () => publish(null));
  return () => source.close();
}

function openRealtime(url: string, anonKey: string): Close {
  let closed = false;
  let unsubscribe: Close = () => {};
  // Loaded only in this setup: supabase-js never enters the bundle of the local runtime's first load.
  void import('./supabase-realtime.ts').then(({ subscribeToMatches }) => {
    if (!closed) unsubscribe = subscribeToMatches(url, anonKey, publish);
  });
  return () => {
    closed = true;
    unsubscribe();
  };
}

function open(): Close {
  const url = import.meta.env.VITE_SUPABASE_URL;
  const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY;
  return url && anonKey ? openRealtime(url, anonKey) : openEventSource();
}

/** Calls `listener` with every changed match (or null after a gap); returns the unsubscribe. */
export function subscribeToMatchUpdates(listener: Listener): Close {
  listeners.add(listener);
  close ??= open();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      close?.();
      close = undefined;
    }
  };
}
