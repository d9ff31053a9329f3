-- A settlement's progress is no longer broadcast to the crowd step by step: each batch of a run (500 bets)
-- moves the match's settlement_settled, and on Realtime every match change is one message per subscriber,
-- so the 200 batches of 100,000 bets were 200 messages for every viewer of the match — 2,000,000 at 10,000
-- viewers, far past the plan's messages a second. The broadcast trigger now skips an update that changes
-- nothing but that progress (and its version and time) before the last batch: the crowd hears the run's
-- start and its end. Where Realtime exists the function is run again to rebuild the trigger's function.

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

select app.enable_match_broadcast();
