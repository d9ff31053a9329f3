-- Realtime's match topics become private: anyone with the anon key could send fake match states on the
-- public topics `matches` and `match:{id}` that every open page (the back office's included) would show.
-- The broadcast now sends on private topics, and a policy on realtime.messages lets every client (anon and
-- authenticated) receive on them while no client role may send: only the database does (realtime.send in
-- the trigger). Where Realtime exists the function is run again to rebuild trigger and policy.

create or replace function app.enable_match_broadcast()
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
      v_match jsonb := app.match_json(new);
    begin
      perform realtime.send(v_match, 'match', 'matches', true);
      perform realtime.send(v_match, 'match', 'match:' || new.id, true);
      return null;
    end;
    $body$
  $function$;
  execute 'comment on function app.broadcast_match_change() is '
    || quote_literal('Trigger: Realtime Broadcast of the public match to the private topics matches and match:{id}.');
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

select app.enable_match_broadcast();
