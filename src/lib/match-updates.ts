/**
 * Live updates reach the page as they happen: match changes (each event is the changed match itself, as
 * GET /api/matches/{id} answers it) and, for a signed-in player, the results of their own bets as their
 * match is settled.
 *
 * Transport: Supabase Realtime Broadcast (the private topic `matches`, and the player's private topic `user:{id}` for
 * results, on one connection) when VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY are set — the hosted setup; otherwise the API's
 * Server-Sent Events stream `GET /api/live/matches` (local runtime, fed by Postgres LISTEN/NOTIFY), which
 * carries both and which the browser resumes with Last-Event-ID after a drop. Either way ONE connection per
 * tab is shared by every subscriber (browsers allow only six HTTP/1.1 connections per origin), opened with the
 * first subscriber and closed with the last.
 *
 * The channel may not be there: a crowd beyond Realtime's quota is refused (so is a stream beyond a server's
 * LIVE_MAX_STREAMS), and a connection drops. Then the status is `delayed` (the live page says so, and
 * use-match-updates.ts polls the public match meanwhile) until the channel is back: a dropped connection
 * comes back by itself (the browser's EventSource, Realtime's own rejoin), a refused one is opened again
 * after a wait that doubles with each refusal, with jitter, so that a refused crowd does not knock again in
 * step. Once a channel opened afresh is live, the matches are refetched once (changes may have been missed
 * meanwhile).
 */
import type { BetResult, Match } from '../domain/entities.ts';

/** `null` means "changes may have been missed" (a gap the server could not replay): refetch once. */
type Listener = (match: Match | null) => void;
type ResultListener = (result: BetResult) => void;
type Close = () => void;

/** `connecting`: no channel yet, none refused or lost either; `delayed`: refused or lost, polling meanwhile. */
export type LiveStatus = 'connecting' | 'live' | 'delayed';

/** What a transport says of its channel: it delivers, it dropped (and comes back by itself), or it was refused. */
export type ChannelState = 'live' | 'lost' | 'refused';

/** A transport's callbacks: the tab's match changes, the player's results, and its channel's state. */
export interface Delivery {
  publish: Listener;
  publishResult: ResultListener;
  state: (state: ChannelState) => void;
}

/**
 * The first wait before a refused channel is opened again; it doubles with each refusal, up to the last: a
 * crowd refused by Realtime's connection quota (90,000 of 100,000) then knocks about 300 times a second, not
 * the 9,000 of Realtime's own rejoin, and meanwhile polls. A channel that drops and is refused once is back
 * within seconds.
 */
export const REOPEN_FIRST_MS = 5_000;
export const REOPEN_MAX_MS = 300_000;

/** The wait before the `attempt`-th reopening (1, 2, …): 5, 10, 20, 40, 80, 160, then 300 s, each ±50 % at random. */
export function reopenDelay(attempt: number, random = Math.random): number {
  const base = Math.min(REOPEN_MAX_MS, REOPEN_FIRST_MS * 2 ** (attempt - 1));
  return Math.round(base * (0.5 + random()));
}

const listeners = new Set<Listener>();
const resultListeners = new Set<ResultListener>();
const statusListeners = new Set<() => void>();
/** The open connection, and the player it was opened for (the stream learns the session when it opens). */
let connection: { close: Close; player: number | null } | undefined;
/** The player whose results are wanted (null: nobody signed in, or nobody listening). */
let player: number | null = null;
let status: LiveStatus = 'connecting';
/** Refusals in a row, and the timer of the next reopening after one. */
let refusals = 0;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;

function publish(match: Match | null) {
  for (const listener of listeners) listener(match);
}

function publishResult(result: BetResult) {
  for (const listener of resultListeners) listener(result);
}

function setStatus(next: LiveStatus) {
  if (status === next) return;
  status = next;
  for (const listener of statusListeners) listener();
}

/** Whether live updates arrive now (read by useSyncExternalStore: use-match-updates.ts). */
export function liveStatus(): LiveStatus {
  return status;
}

export function subscribeToLiveStatus(listener: () => void): Close {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

function openEventSource({ publish, publishResult, state }: Delivery): Close {
  if (typeof EventSource === 'undefined') return () => {}; // no push here: the page refetches on focus
  const source = new EventSource('/api/live/matches');
  source.addEventListener('open', () => state('live'));
  // A refusal (503: the server has all the streams it takes) closes the source for good; a drop leaves it
  // reconnecting by itself, resuming with Last-Event-ID.
  source.addEventListener('error', () => state(source.readyState === EventSource.CLOSED ? 'refused' : 'lost'));
  source.addEventListener('match', (event) => publish(JSON.parse((event as MessageEvent<string>).data)));
  source.addEventListener('gap', () => publish(null));
  source.addEventListener('result', (event) => publishResult(JSON.parse((event as MessageEvent<string>).data)));
  return () => source.close();
}

function openRealtime(url: string, anonKey: string, forPlayer: number | null, delivery: Delivery): Close {
  let closed = false;
  let close: Close = () => {};
  // Loaded only in this setup: supabase-js never enters the bundle of the local runtime's first load.
  void import('./supabase-realtime.ts').then(({ subscribeToLive }) => {
    if (!closed) close = subscribeToLive(url, anonKey, forPlayer, delivery);
  });
  return () => {
    closed = true;
    close();
  };
}

function open(forPlayer: number | null, reopened: boolean): Close {
  const url = import.meta.env.VITE_SUPABASE_URL;
  const anonKey = import.meta.env.VITE_SUPABASE_ANON_KEY;
  let current = true;
  const delivery: Delivery = {
    publish,
    publishResult,
    state: (state) => {
      if (!current) return;
      if (state === 'live') {
        refusals = 0;
        setStatus('live');
        if (reopened) publish(null);
        reopened = false;
        return;
      }
      setStatus('delayed');
      if (state === 'refused') refused();
    },
  };
  const close = url && anonKey ? openRealtime(url, anonKey, forPlayer, delivery) : openEventSource(delivery);
  return () => {
    current = false;
    close();
  };
}

/** The channel was refused: closed now, opened again after a wait (jittered, doubling with each refusal). */
function refused() {
  connection?.close();
  connection = undefined;
  refusals += 1;
  clearTimeout(reopenTimer);
  reopenTimer = setTimeout(() => {
    reopenTimer = undefined;
    connect(true);
  }, reopenDelay(refusals));
}

/**
 * Opens, closes or reopens the tab's connection to match its subscribers: a connection opened for another
 * player (or for nobody) is reopened, so that results go to whoever is signed in now and to nobody else;
 * matches changed meanwhile are refetched once. Done once the current task's subscriptions have all been
 * made (a page subscribes to matches and to the player's results in the same render): one connection opens.
 * After a refusal nothing opens until its wait is over (`reopen`).
 */
let reconnecting = false;
function connect(reopen = false) {
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
    if (!wanted) {
      clearTimeout(reopenTimer);
      reopenTimer = undefined;
      refusals = 0;
      setStatus('connecting');
      return;
    }
    if (!connection && (reopen || reopenTimer === undefined))
      connection = { close: open(player, reopen || refusals > 0), player };
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
