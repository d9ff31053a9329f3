/**
 * Live match updates reach the page without waiting for the 30 s poll (ARCHITECTURE.md §1).
 *
 * Transport: Supabase Realtime (a channel on `public.matches`) when VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY are set — the hosted setup; otherwise the API's Server-Sent Events stream
 * `GET /api/live/matches` (local runtime, fed by Postgres LISTEN/NOTIFY). Either way ONE connection per
 * tab is shared by every subscriber (browsers allow only six HTTP/1.1 connections per origin), opened
 * with the first subscriber and closed with the last. Polling stays as the fallback.
 */
export interface MatchUpdate {
  id: number;
  status: string;
}
/** `null` means "updates may have been missed" (the stream reconnected): refresh everything. */
type Listener = (update: MatchUpdate | null) => void;
type Close = () => void;

const listeners = new Set<Listener>();
let close: Close | undefined;

function publish(update: MatchUpdate | null) {
  for (const listener of listeners) listener(update);
}

function openEventSource(): Close {
  if (typeof EventSource === 'undefined') return () => {}; // no push here: the poll still refreshes
  const source = new EventSource('/api/live/matches');
  let lostConnection = false;
  source.addEventListener('match', (event) => publish(JSON.parse((event as MessageEvent<string>).data)));
  source.addEventListener('error', () => (lostConnection = true)); // EventSource reconnects by itself
  source.addEventListener('open', () => {
    if (lostConnection) publish(null);
    lostConnection = false;
  });
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

/** Calls `listener` on every match change (or with null after a gap); returns the unsubscribe. */
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
