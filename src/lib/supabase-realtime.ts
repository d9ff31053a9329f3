/**
 * The hosted transport of live match updates: Supabase Realtime "postgres_changes" on public.matches
 * (the migration adds the table to the `supabase_realtime` publication; anon may read matches, so the
 * anon key suffices). A lazy chunk of its own.
 */
import { createClient } from '@supabase/supabase-js';
import type { MatchUpdate } from './match-updates.ts';

export function subscribeToMatches(url: string, anonKey: string, publish: (update: MatchUpdate | null) => void) {
  const client = createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  let subscribedBefore = false;
  const channel = client
    .channel('public:matches')
    .on('postgres_changes', { event: '*', schema: 'public', table: 'matches' }, (payload) => {
      const row = payload.new as Partial<MatchUpdate>;
      if (typeof row.id === 'number' && typeof row.status === 'string') publish({ id: row.id, status: row.status });
    })
    .subscribe((status) => {
      // A re-subscription after a drop may have missed changes: ask for a refresh.
      if (status === 'SUBSCRIBED' && subscribedBefore) publish(null);
      if (status === 'SUBSCRIBED') subscribedBefore = true;
    });
  return () => {
    void client.removeChannel(channel);
  };
}
