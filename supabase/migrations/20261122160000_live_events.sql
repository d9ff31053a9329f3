-- Live updates at match-day scale: every match change is published as the new state
-- itself — the public match as the API answers it (app.match_json, with its version) — so no viewer reads
-- it back. Two transports carry the same payload:
--
--   * pg_notify('match_updates', …) (app.notify_match_change, since the request_path migration), which the
--     API's Server-Sent Events relay from one LISTEN per server process — the local runtime;
--   * on Supabase, Realtime Broadcast from the database: realtime.send(payload, 'match', topic, false) to
--     the public topics `matches` (every change) and `match:{id}` (one match). It needs no sign-in to
--     subscribe and carries nothing private. Supabase's guidance for scale prefers it to postgres_changes,
--     which rechecks every change against every subscriber's RLS.
--
-- The broadcast exists only where the `realtime` schema does: app.enable_match_broadcast() creates it when
-- realtime.send is there (this migration calls it) and does nothing elsewhere, so vanilla PostgreSQL still
-- migrates. A project that enables Realtime after migrating runs `select app.enable_match_broadcast();`.
-- The table leaves the supabase_realtime publication: nothing subscribes to its postgres_changes any more.

/** Functions */

-- Creates (or refreshes) the broadcast trigger on public.matches when realtime.send exists; returns whether
-- it did. The trigger function is created here, with dynamic SQL, because it names realtime.send, which a
-- database without Realtime does not have.
create function app.enable_match_broadcast()
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is null then
    return false;
  end if;
  execute $function$
    create or replace function app.broadcast_match_change()
    returns trigger
    language plpgsql
    set search_path = ''
    as $body$
    declare
      v_match jsonb := app.match_json(new);
    begin
      perform realtime.send(v_match, 'match', 'matches', false);
      perform realtime.send(v_match, 'match', 'match:' || new.id, false);
      return null;
    end;
    $body$
  $function$;
  execute 'comment on function app.broadcast_match_change() is '
    || quote_literal('Trigger: Realtime Broadcast of the public match to topics matches and match:{id}.');
  execute 'revoke execute on function app.broadcast_match_change() from public, anon, authenticated, service_role';
  execute 'create or replace trigger matches_broadcast after insert or update on public.matches '
    || 'for each row execute function app.broadcast_match_change()';
  return true;
end;
$$;
comment on function app.enable_match_broadcast() is
  'Creates the Realtime Broadcast of match changes where realtime.send exists; false elsewhere. Owner only.';

revoke execute on function app.enable_match_broadcast() from public, anon, authenticated, service_role;

select app.enable_match_broadcast();

/** Publications */

do $$
begin
  if exists (select 1 from pg_publication where pubname = 'supabase_realtime' and not puballtables)
     and exists (
       select 1 from pg_publication_tables
       where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'matches'
     ) then
    alter publication supabase_realtime drop table public.matches;
  end if;
end
$$;
