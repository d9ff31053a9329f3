-- Live events: every change of a match is published as the new state itself — the public match as the API
-- answers it (app.match_json, with its version) — so no viewer reads it back. Two transports carry the same
-- payload:
--
--   * pg_notify('match_updates', …) (trigger matches_notify), which the API's Server-Sent Events relay from
--     one LISTEN per server process — the local runtime;
--   * on Supabase, Realtime Broadcast from the database: realtime.send(payload, 'match', topic, true) to the
--     private topics `matches` (every change) and `match:{id}` (one match). Anyone may receive them (anon
--     and authenticated: no sign-in is needed, and they carry nothing private) but nobody may send on them
--     but the database: on a public topic anyone holding the anon key could send fake match states that
--     every open page, the back office's included, would show. The policy on realtime.messages says so.
--     Supabase's guidance for scale prefers Broadcast to postgres_changes, which rechecks every change
--     against every subscriber's RLS; public.matches is therefore not in the supabase_realtime publication.
--
-- The broadcast exists only where the `realtime` schema does: app.enable_match_broadcast() creates it when
-- realtime.send is there (this file calls it) and does nothing elsewhere, so vanilla PostgreSQL builds the
-- same schema without it. A project that enables Realtime later runs `select app.enable_match_broadcast();`.

/** Functions: versions */

-- Every change of a match grows its version by one. The row is locked by the update, so versions follow
-- the order in which the changes commit.
create function app.bump_match_version()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.version := old.version + 1;
  return new;
end;
$$;
comment on function app.bump_match_version() is 'Trigger: version + 1 on every update of a match.';

create trigger matches_version
  before update on public.matches
  for each row execute function app.bump_match_version();

/** Functions: notifications */

-- Every insert and update of a match is announced on channel match_updates with the public match itself,
-- as the API answers it (well below pg_notify's 8000-byte limit), so no listener has to read it back. Not
-- SECURITY DEFINER: pg_notify needs no privilege.
create function app.notify_match_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('match_updates', app.match_json(new)::text);
  return null;
end;
$$;
comment on function app.notify_match_change() is
  'Trigger: pg_notify(match_updates, <the match as the API answers it>) on every match insert/update.';

create trigger matches_notify
  after insert or update on public.matches
  for each row execute function app.notify_match_change();

/** Functions: Realtime Broadcast */

-- Creates (or refreshes) the broadcast trigger on public.matches and the policy of its topics when Realtime
-- exists; returns whether it did. The trigger function app.broadcast_match_change is created here, with
-- dynamic SQL, because it names realtime.send, which a database without Realtime does not have. The policy
-- lets every client join (receive on) the match topics; with no insert policy for any client role, only the
-- database (realtime.send, as the owner of the functions that change matches) sends on them. Owner only.
create function app.enable_match_broadcast()
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is null or to_regclass('realtime.messages') is null then
    return false;
  end if;
  execute $function$
    create or replace function app.broadcast_match_change()
    returns trigger
    language plpgsql
    set search_path = ''
    as $body$
    declare
      v_match jsonb;
    begin
      -- A settlement run moves the match's progress once per batch (two hundred times for 100,000 bets);
      -- the crowd hears its start and its end, not each step between: on Realtime every change is one
      -- message per subscriber. (The local live stream, one frame per server process, shows every step.)
      if tg_op = 'UPDATE' and new.settlement_settled < new.settlement_total
         and to_jsonb(new) - '{settlement_settled,updated_at,version}'::text[]
             = to_jsonb(old) - '{settlement_settled,updated_at,version}'::text[] then
        return null;
      end if;
      v_match := app.match_json(new);
      perform realtime.send(v_match, 'match', 'matches', true);
      perform realtime.send(v_match, 'match', 'match:' || new.id, true);
      return null;
    end;
    $body$
  $function$;
  execute 'comment on function app.broadcast_match_change() is '
    || quote_literal('Trigger: Realtime Broadcast of the public match to the private topics matches and match:{id} '
    || '(a settlement''s progress at its start and end only).');
  execute 'revoke execute on function app.broadcast_match_change() from public, anon, authenticated, service_role';
  execute 'create or replace trigger matches_broadcast after insert or update on public.matches '
    || 'for each row execute function app.broadcast_match_change()';

  execute 'alter table realtime.messages enable row level security';
  execute 'drop policy if exists "match topics: every client receives" on realtime.messages';
  execute $policy$
    create policy "match topics: every client receives" on realtime.messages
    for select to anon, authenticated
    using (extension = 'broadcast' and (topic = 'matches' or topic like 'match:%'))
  $policy$;
  return true;
end;
$$;
comment on function app.enable_match_broadcast() is
  'Creates the Realtime Broadcast of match changes to the private topics matches and match:{id} (trigger and policy: every client receives, only the database sends) where Realtime exists; false elsewhere. Owner only.';

/** Function privileges */

revoke execute on function
  app.bump_match_version(),
  app.notify_match_change(),
  app.enable_match_broadcast()
  from public, anon, authenticated, service_role;

/** Broadcast */

select app.enable_match_broadcast();
