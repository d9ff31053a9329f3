-- Stale deposits: a deposit the payment gateway never answered does not stay pending for ever.
--
-- A deposit is pending from POST /api/wallet/deposit until the gateway's signed webhook completes or fails
-- it (or an admin approves or rejects it). A player who closes the gateway page, or a gateway that loses the
-- payment, leaves it pending: it clutters the player's wallet and the admins' pending queue. After a window
-- (24 hours by default) with no answer, app.fail_stale_deposits marks it failed, with an audit row
-- 'deposit.expired' (admin_id null: no admin acted). Nothing is credited or debited: a pending deposit
-- was never credited, so the ledger invariant holds untouched.
--
-- Who runs it: pg_cron every 5 minutes where the extension is enabled (hosted Supabase: Database →
-- Extensions → pg_cron, before `supabase db push`); elsewhere (vanilla PostgreSQL, the embedded server)
-- the local runtime (scripts/start.js) calls the same function on a timer.

/** Functions */

-- Marks failed every pending deposit created more than p_window before p_now (the gateway never answered:
-- an answer would have completed or failed it), each with an audit row 'deposit.expired' (admin_id null;
-- before: pending and its creation time; after: failed and the window). Moves no money. Returns how many it
-- failed. A webhook or an admin deciding the same deposit at the same moment holds its row lock: the update
-- waits for it and then skips a deposit that is no longer pending. p_now is a parameter for the tests.
-- Caller: the scheduler (pg_cron as the migration owner, the local runtime as service_role), no claims.
create function app.fail_stale_deposits(
  p_window interval default interval '24 hours', p_now timestamptz default now()
)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_failed integer;
begin
  if p_window is null or p_window <= interval '0' or p_now is null then
    raise exception using errcode = 'BT400', message = 'Invalid window';
  end if;
  with expired as (
    update public.transactions t
      set status = 'failed', updated_at = now()
      where t.type = 'deposit' and t.status = 'pending' and t.created_at < p_now - p_window
      returning t.id, t.created_at
  ), audited as (
    insert into public.audit_log (admin_id, action, target_type, target_id, before, after)
    select null, 'deposit.expired', 'transaction', e.id,
           jsonb_build_object('status', 'pending', 'created_at', e.created_at),
           jsonb_build_object('status', 'failed', 'no_answer_for', p_window::text)
      from expired e
    returning 1
  )
  select count(*) into v_failed from audited;
  return v_failed;
end;
$$;
comment on function app.fail_stale_deposits(interval, timestamptz) is
  'Fails pending deposits older than the window (default 24 hours) with an audit row; moves no money. Caller: pg_cron or the local runtime''s timer (service_role).';

/** Function privileges */

revoke execute on function app.fail_stale_deposits(interval, timestamptz) from public, anon, authenticated;
grant execute on function app.fail_stale_deposits(interval, timestamptz) to service_role;

/** Schedule */

-- Created only where pg_cron is enabled, so vanilla PostgreSQL still migrates (like the supabase_realtime
-- publication in 20261121000300_matches_and_bets.sql). cron.schedule with a job name replaces a job of the
-- same name, so running this again changes nothing. Enabled after this migration ran? Run the same
-- cron.schedule call once (README.md, "Stale deposits").
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    perform cron.schedule('fail-stale-deposits', '*/5 * * * *', 'select app.fail_stale_deposits()');
  end if;
end
$$;
