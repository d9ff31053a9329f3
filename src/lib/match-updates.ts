/**
 * Live updates reach the page without waiting for the 30 s poll: match changes (each event is the changed
 * match itself, as GET /api/matches/{id} answers it) and, for a signed-in player, the results of their own
 * bets as their match is settled.
 *
 * Transport: Supabase Realtime Broadcast (the private topic `matches`, and the player's private topic `user:{id}` for
 * results) when VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY are set — the hosted setup; otherwise the API's
 * Server-Sent Events stream `GET /api/live/matches` (local runtime, fed by Postgres LISTEN/NOTIFY), which
 * carries both and which the browser resumes with Last-Event-ID after a drop. Either way ONE connection per
 * tab is shared by every subscriber (browsers allow only six HTTP/1.1 connections per origin), opened with the
 * first subscriber and closed with the last. Polling stays as the fallback.
 */
import type { BetResult, Match } from '../domain/entities.ts';

/** `null` means "changes may have been missed" (a gap the server could not replay): refetch once. */
type Listener = (match: Match | null) => void;
type ResultListener = (result: BetResult) => void;
type Close = () => void;

const listeners = new Set<Listener>();
const resultListeners = new Set<ResultListener>();
/** The open connection, and the player it was opened for (the stream learns the session when it opens). */
let connection: { close: Close; player: number | null } | undefined;
/** The player whose results are wanted (null: nobody signed in, or nobody listening). */
let player: number | null = null;

function publish(match: Match | null) {
  for (const listener of listeners) listener(match);
}

function publishResult(result: BetResult) {
  for (const listener of resultListeners) listener(result);
}

function openEventSource(): Close {
  if (typeof EventSource === 'undefined') return () => {}; // no push here: the poll still refreshes
  const source = new EventSource('/api/live/matches');
  source.addEventListener('match', (event) => publish(JSON.parse((event as MessageEvent<string>).data)));
  source.addEventListener('gap', () => publish(null));
  source.addEventListener('result', (event) => publishResult(JSON.parse((event as MessageEvent<string>).data)));
  return () => source.close();
}

function openRealtime(url: string, anonKey: string, forPlayer: number | null): Close {
  let closed = false;
  const unsubscribe: Close[] = [];
  // Loaded only in this setup: supabase-js never enters the bundle of the local runtime's first load.
  void import('./supabase-realtime.ts').then(({ subscribeToMatches, subscribeToResults }) => {
    if (closed) return;
    unsubscribe.push(subscribeToMatches(url, anonKey, publish));
    if (forPlayer !== null) unsubscribe.push(subscribeToResults(url, anonKey, forPlayer, publishResult));
  });
  return () => {
    closed = true;
    for (const close of unsubscribe) close();
  };
}

function open(forPlayer: number | null): Close {
  const url = import.meta.env.VITE_SUPABASE_URL;
  const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY;
  return url && anonKey ? openRealtime(url, anonKey, forPlayer) : openEventSource();
}

/**
 * Opens, closes or reopens the tab's connection to match its subscribers: a connection opened for another
 * player (or for nobody) is reopened, so that results go to whoever is signed in now and to nobody else;
 * matches changed meanwhile are refetched once. Done once the current task's subscriptions have all been
 * made (a page subscribes to matches and to the player's results in the same render): one connection opens.
 */
let reconnecting = false;
function connect() {
  if (reconnecting) return;
  reconnecting = true;
  queueMicrotask(() => {
    reconnecting = false;
    const wanted = listeners.size + resultListeners.size > 0;
    if (connection && (!wanted || connection.player !== player)) {
      connection.close();
      connection = undefined;
      if (wanted) publish(null);
    }
    if (wanted && !connection) connection = { close: open(player), player };
  });
}

/** Calls `listener` with every changed match (or null after a gap); returns the unsubscribe. */
export function subscribeToMatchUpdates(listener: Listener): Close {
  listeners.add(listener);
  connect();
  return () => {
    listeners.delete(listener);
    connect();
  };
}

/** Calls `listener` with the results of signed-in player `userId`'s bets as they are settled; returns the unsubscribe. */
export function subscribeToBetResults(userId: number, listener: ResultListener): Close {
  resultListeners.add(listener);
  player = userId;
  connect();
  return () => {
    resultListeners.delete(listener);
    if (resultListeners.size === 0) player = null;
    connect();
  };
}
