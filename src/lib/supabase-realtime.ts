/**
 * The hosted transport of live match updates: Supabase Realtime Broadcast on the topic `matches`, fed from the
 * database (supabase/schemas/70_live_events.sql: realtime.send of app.match_json on every change). The topic
 * is private, so that only the database can send on it (a public one would take fake match states from
 * anyone holding the anon key); its policy lets every client receive, so no sign-in is needed: the join
 * carries the anon key as its token. A lazy chunk of its own.
 */
import { createClient } from '@supabase/supabase-js';
import type { BetResult, Match } from '../domain/entities.ts';
import { api, ApiError } from './api-client.ts';
import type { Delivery } from './match-updates.ts';

/**
 * Joins `matches` and reports its state: live once subscribed; refused when the join fails, times out or is
 * closed (over the project's connection, join or message quota, a drop, Realtime away), so that
 * match-updates.ts opens it again after a wait of its own, jittered, rather than Realtime's rejoin every few
 * seconds with a crowd in step — and refetches once, since Broadcast does not replay what was missed.
 */
export function subscribeToMatches(
  url: string,
  anonKey: string,
  { publish, state }: Pick<Delivery, 'publish' | 'state'>,
) {
  const client = createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  let closed = false;
  const channel = client
    .channel('matches', { config: { private: true } })
    .on('broadcast', { event: 'match' }, ({ payload }) => publish(payload as Match));
  // A private channel's join must carry a token (the anon key's role, anon, is what the policy admits); set
  // it before joining, or the first join may go out without one and be refused.
  void client.realtime.setAuth(anonKey).then(
    () => {
      if (closed) return;
      channel.subscribe((status) => !closed && state(status === 'SUBSCRIBED' ? 'live' : 'refused'));
    },
    () => !closed && state('refused'),
  );
  return () => {
    closed = true;
    void client.removeChannel(channel);
  };
}

/** A results token is renewed this long before it ends (it lasts 5 minutes). */
const RENEW_BEFORE_MS = 60_000;
/** A renewal that failed for another reason than an ended session is tried again after this long. */
const RETRY_MS = 15_000;

/**
 * The results of one signed-in player's bets, on their private topic `user:{id}`, which Realtime lets only a
 * token naming that player join (GET /api/live/token). A token lasts 5 minutes and is renewed a minute before
 * it ends, so a session that ends takes the topic with it within minutes: its renewal answers 401 and the
 * channel is left at once. Without a token (the project's JWT secret is not configured) there is nothing to
 * join: the player's bets and balance refresh when the settlement ends instead.
 */
export function subscribeToResults(url: string, anonKey: string, userId: number, publish: (result: BetResult) => void) {
  const client = createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  let closed = false;
  let renewal: ReturnType<typeof setTimeout> | undefined;
  const channel = client
    .channel(`user:${userId}`, { config: { private: true } })
    .on('broadcast', { event: 'result' }, ({ payload }) => publish(payload as BetResult));
  const close = () => {
    closed = true;
    clearTimeout(renewal);
    void client.removeChannel(channel);
  };
  const renewIn = (ms: number) => {
    if (!closed) renewal = setTimeout(() => void authorize().catch(retry), Math.max(0, ms));
  };
  const retry = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401)
      close(); // the session has ended
    else renewIn(RETRY_MS);
  };
  const authorize = async () => {
    const { token, expires_at } = await api.get<{ token: string; expires_at: string }>('/api/live/token');
    await client.realtime.setAuth(token);
    renewIn(Date.parse(expires_at) - Date.now() - RENEW_BEFORE_MS);
  };
  void authorize().then(
    () => !closed && channel.subscribe(),
    () => {},
  );
  return close;
}
