-- One default for the settlement batch size: app.settle_step's (500, what the server passed), which pg_cron's
-- sweep uses too; the server passes another only when SETTLEMENT_BATCH_SIZE is set.
create or replace function app.settle_step(p_batch_size int default 500)
returns text
language plpgsql
set search_path = ''
as $$
declare
  v_match bigint;
begin
  for v_match in select r.match_id from app.settlement_runs r where r.finished_at is null order by r.created_at loop
    -- settles, holding that run's rows, or finds no batch free and holds nothing
    if app.settle_batch(v_match) is not null then
      return 'settled';
    end if;
  end loop;
  select r.match_id into v_match
    from app.settlement_runs r
    where r.finished_at is null
      and exists (select 1 from public.bets b where b.match_id = r.match_id and b.user_id >= r.next_user_id)
    order by r.created_at
    limit 1;
  if v_match is null then
    return 'idle';
  end if;
  -- whatever a concurrent claim left to this one, the next step looks again
  perform app.claim_settlement_batch(v_match, p_batch_size);
  return 'claimed';
end;
$$;
