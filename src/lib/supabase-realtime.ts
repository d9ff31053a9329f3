/**
 * The hosted transport of live match updates: Supabase Realtime Broadcast on the public topic `matches`,
 * fed from the database (the live_events migration: realtime.send of app.match_json on every change). A
 * public topic: the anon key suffices and no sign-in is needed. A lazy chunk of its own.
 */
import { createClient } from '@supabase/supabase-js';
import type { Match } from '../domain/entities.ts';

export function subscribeToMatches(url: string, anonKey: string, publish: (match: Match | null) => void) {
  const client = createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  let subscribedBefore = false;
  const channel = client
    .channel('matches', { config: { private: false } })
    .on('broadcast', { event: 'match' }, ({ payload }) => publish(payload as Match))
    .subscribe((status) => {
      // A re-subscription after a drop may have missed changes (Broadcast does not replay): refetch once.
      if (status === 'SUBSCRIBED' && subscribedBefore) publish(null);
      if (status === 'SUBSCRIBED') subscribedBefore = true;
    });
  return () => {
    void client.removeChannel(channel);
  };
}
