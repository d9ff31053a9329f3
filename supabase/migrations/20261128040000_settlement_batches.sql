-- Settlement batches of 1,000 bets (was 500), no lock pass of a batch's own unless a referral bonus may be
-- paid in it (the batch's posting locks the players it credits, in id order, as every posting does), and one
-- default for the batch size (app.claim_settlement_batch's unused 2,000 dropped). docs/performance.md has the
-- measurements.

drop function app.claim_settlement_batch(bigint, int);
create function app.claim_settlement_batch(p_match_id bigint, p_size int)
returns app.settlement_batches
language plpgsql
set search_path = ''
as $$
declare
  v_run app.settlement_runs;
  v_last bigint;
  v_batch app.settlement_batches;
begin
  select * into v_run from app.settlement_runs r where r.match_id = p_match_id and r.finished_at is null for update;
  if not found then
    return null;
  end if;
  -- a claim lost in a crash is claimed again: its commit need not wait for the disk
  perform set_config('synchronous_commit', 'off', true);
  select b.user_id into v_last
    from public.bets b
    where b.match_id = p_match_id and b.user_id >= v_run.next_user_id
    order by b.user_id
    offset greatest(p_size, 1) - 1
    limit 1;
  if v_last is null then
    select max(b.user_id) into v_last from public.bets b where b.match_id = p_match_id and b.user_id >= v_run.next_user_id;
  end if;
  if v_last is null then
    return null;
  end if;
  insert into app.settlement_batches (match_id, first_user_id, last_user_id)
  values (p_match_id, v_run.next_user_id, v_last)
  returning * into v_batch;
  update app.settlement_runs set next_user_id = v_last + 1 where match_id = p_match_id;
  return v_batch;
end;
$$;
comment on function app.claim_settlement_batch(bigint, int) is
  'Claims the next range of players of a settlement run as a batch. Caller: the settlement workers (app.settle_step).';
revoke execute on function app.claim_settlement_batch(bigint, int) from public, anon, authenticated, service_role;

create or replace function app.settle_batch(p_match_id bigint)
returns int
language plpgsql
set search_path = ''
set work_mem = '64MB'
as $$
declare
  v_batch app.settlement_batches;
  v_match public.matches;
  v_void boolean;
  v_winner bigint;
  v_run app.settlement_runs;
  v_referred bigint[];
  v_correction bigint;
  v_rows public.transactions[];
  v_bets int;
  v_stakes bigint;
  v_paid bigint;
  v_refunded bigint;
  v_credited bigint;
begin
  select * into v_batch
    from app.settlement_batches x
    where x.match_id = p_match_id and x.settled_at is null
    order by x.first_user_id
    limit 1
    for update skip locked;
  if not found then
    return null;
  end if;
  perform set_config('synchronous_commit', 'off', true);
  select * into v_match from public.matches m where m.id = p_match_id;
  select * into v_run from app.settlement_runs r where r.match_id = p_match_id;
  v_winner := v_match.winning_team_id;
  v_void := v_winner is null;
  -- a correction's run: the bets the earlier outcome settled are reopened first, and the rows name the correction
  select c.id into v_correction from app.result_corrections c where c.match_id = p_match_id and c.status = 'applying';
  if v_correction is not null then
    perform app.reopen_settled_bets(v_correction, v_batch);
  end if;

  -- A bonus may be paid in this batch only where it holds referred players whose bonus is still open. Then the
  -- players it credits and the referrers a bonus may go to are locked first, in one pass in id order (the
  -- bonus's posting and the batch's would otherwise lock in two passes, which could deadlock with another
  -- transaction). Without such players, the batch's one posting locks the players it credits, in id order.
  if not v_void and exists (select 1 from app.referrals r
                            where r.user_id between v_batch.first_user_id and v_batch.last_user_id
                              and r.paid_at is null and r.linked_at is null) then
    perform 1 from public.users u
      where u.id in (select b.user_id from public.bets b
                     where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
                       and b.status = 'placed' and b.team_id = v_winner
                     union all
                     select r.referrer_id from app.referrals r
                     join public.bets b on b.user_id = r.user_id and b.match_id = p_match_id and b.status = 'placed'
                     where r.paid_at is null and r.linked_at is null
                       and r.user_id between v_batch.first_user_id and v_batch.last_user_id)
      order by u.id
      for no key update;

    -- the house's result on each referred player's bets of this batch: stakes lost, minus winnings paid
    with results as (
      update app.referrals r set house_result = r.house_result + s.result
      from (select b.user_id, sum(b.amount - case when b.team_id = v_winner then b.potential_win else 0 end) as result
            from public.bets b
            join app.referrals x on x.user_id = b.user_id and x.paid_at is null and x.linked_at is null
            where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
              and b.status = 'placed'
            group by b.user_id) s
      where r.user_id = s.user_id
      returning r.user_id
    )
    select array_agg(user_id) into v_referred from results;
    if v_referred is not null then
      perform app.pay_referral_bonuses(v_referred);
    end if;
  end if;

  -- the bets settled, with the batch's figures and the ledger rows of its winning or refunded bets
  with settled as (
    update public.bets b
      set status = case when v_void then 'cancelled' when b.team_id = v_winner then 'won' else 'lost' end,
          settled_at = now()
      where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
        and b.status = 'placed'
      returning b.id, b.user_id, b.amount, b.potential_win, b.status
  )
  select count(*), coalesce(sum(s.amount), 0),
         coalesce(sum(s.potential_win) filter (where s.status = 'won'), 0),
         coalesce(sum(s.amount) filter (where s.status = 'cancelled'), 0),
         coalesce(array_agg(app.ledger_row(s.user_id, case when v_void then 'bet_refund' else 'bet_won' end,
                                           case when v_void then s.amount else s.potential_win end,
                                           'completed', 'BET-' || s.id || coalesce('-C' || v_correction, ''))
                                 order by s.user_id, s.id)
                    filter (where s.status in ('won', 'cancelled')), '{}')
    into v_bets, v_stakes, v_paid, v_refunded, v_rows
    from settled s;

  -- one posting: the payouts or refunds into the wallets, the stakes of the bets that were not refunded
  -- from the stakes held to the house's result, booked when the outcome was fixed
  select coalesce(sum(t.amount), 0) into v_credited
    from app.post_transfers(
      v_rows,
      case when v_stakes > v_refunded
        then array[app.house_transfer('stakes_held', 'house_result', v_stakes - v_refunded, 'stakes_settled', p_match_id)]
        else '{}' end,
      v_run.created_at) t;
  if v_bets > 0 then
    perform app.book_match_line(p_match_id, v_run.created_at, v_bets, v_stakes, v_paid, v_refunded);
  end if;

  update app.settlement_batches x set settled_at = now(), bets = v_bets, credited = v_credited
    where x.match_id = p_match_id and x.first_user_id = v_batch.first_user_id;
  update public.matches m set settlement_settled = m.settlement_settled + v_bets, updated_at = now()
    where m.id = p_match_id
    returning * into v_match;

  if v_match.settlement_settled = v_match.settlement_total then
    perform app.finish_settlement(v_match);
  end if;
  perform pg_notify('bet_results', json_build_object(
    'match_id', p_match_id, 'first_user_id', v_batch.first_user_id, 'last_user_id', v_batch.last_user_id)::text);
  return v_bets;
end;
$$;

create or replace function app.settle_step(p_batch_size int default 1000)
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
