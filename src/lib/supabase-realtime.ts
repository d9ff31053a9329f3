/**
 * The hosted transport of live updates: Supabase Realtime Broadcast, fed from the database — the private
 * topic `matches` (supabase/schemas/70_live_events.sql: realtime.send of app.match_json on every change)
 * and a signed-in player's private topic `user:{id}` (their results as their bets are settled). Private, so
 * that only the database can send on them (a public topic would take fake match states from anyone holding
 * the anon key). A lazy chunk of its own.
 *
 * ONE connection per tab carries both topics: each connection is one of the plan's concurrent Realtime
 * connections, the first limit a crowd meets. Its token is the player's own (GET /api/live/token), which
 * the policy of `matches` admits as it admits the anon key. A token lasts 5 minutes and is renewed a minute
 * before it ends, so a session that ends takes the results topic with it within minutes: its renewal
 * answers 401, the topic is left and the connection goes on with the anon key, for the matches alone. A
 * visitor, or a project whose JWT secret is not configured (no token to be had), joins `matches` alone with
 * the anon key, and the player's bets and balance then refresh when the settlement ends instead.
 */
import { createClient, type RealtimeChannel } from '@supabase/supabase-js';
import type { BetResult, Match } from '../domain/entities.ts';
import { answer, ApiError, client } from './api-client.ts';
import type { Delivery } from './match-updates.ts';

/** A player's token is renewed this long before it ends (it lasts 5 minutes). */
const RENEW_BEFORE_MS = 60_000;
/** A renewal that failed for another reason than an ended session is tried again after this long. */
const RETRY_MS = 15_000;

/**
 * The tab's last player token, used again while it has more than RENEW_BEFORE_MS left: a refused channel
 * is opened again, and a crowd refused by Realtime must not ask the API for a token each time.
 */
let kept: { player: number; token: string; expiresAt: number } | undefined;

async function tokenFor(player: number): Promise<{ token: string; expiresAt: number }> {
  if (kept?.player === player && kept.expiresAt - Date.now() > RENEW_BEFORE_MS) return kept;
  const { token, expires_at } = await answer(client.GET('/api/live/token'));
  kept = { player, token, expiresAt: Date.parse(expires_at) };
  return kept;
}

const endedSession = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * Joins `matches` (and `user:{player}` for a signed-in player) and reports the channel's state: live once
 * `matches` is subscribed; refused when its join fails, times out or is closed (over the project's
 * connection, join or message quota, a drop, Realtime away), so that match-updates.ts opens it again after
 * a wait of its own, jittered, rather than Realtime's rejoin every few seconds with a crowd in step — and
 * refetches once, since Broadcast does not replay what was missed. Returns the close.
 */
export function subscribeToLive(
  url: string,
  anonKey: string,
  player: number | null,
  { publish, publishResult, state }: Delivery,
): () => void {
  const client = createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  let closed = false;
  let renewal: ReturnType<typeof setTimeout> | undefined;
  let results: RealtimeChannel | undefined;
  const matches = client
    .channel('matches', { config: { private: true } })
    .on('broadcast', { event: 'match' }, ({ payload }) => publish(payload as Match));

  const renewIn = (ms: number) => {
    if (!closed) renewal = setTimeout(() => void renew(), Math.max(0, ms));
  };
  const leaveResults = async () => {
    if (results) void client.removeChannel(results);
    results = undefined;
    await client.realtime.setAuth(anonKey);
  };
  const renew = async () => {
    try {
      const { token, expiresAt } = await tokenFor(player!);
      if (closed) return;
      await client.realtime.setAuth(token);
      renewIn(expiresAt - Date.now() - RENEW_BEFORE_MS);
    } catch (error) {
      if (closed) return;
      if (endedSession(error)) await leaveResults();
      else renewIn(RETRY_MS);
    }
  };

  void (async () => {
    // A private channel's join must carry a token: set it before joining, or the first join may go out
    // without one and be refused.
    const first = player === null ? null : await tokenFor(player).catch(() => null);
    await client.realtime.setAuth(first?.token ?? anonKey);
    if (closed) return;
    matches.subscribe((status) => !closed && state(status === 'SUBSCRIBED' ? 'live' : 'refused'));
    if (first === null) return;
    renewIn(first.expiresAt - Date.now() - RENEW_BEFORE_MS);
    results = client
      .channel(`user:${player}`, { config: { private: true } })
      .on('broadcast', { event: 'result' }, ({ payload }) => publishResult(payload as BetResult));
    results.subscribe();
  })().catch(() => !closed && state('refused'));

  return () => {
    closed = true;
    clearTimeout(renewal);
    void client.removeChannel(matches);
    if (results) void client.removeChannel(results);
  };
}
