-- Settlement: a resumable job. A request runs in one transaction; settling a match is not one request's
-- work. Declaring a winner (or abandoning a match) fixes the outcome and records a settlement run
-- in one short transaction, and answers at once; the bets are then settled in batches, each its own short
-- transaction, by every server process (woken by a notification) and by a sweep that finishes what a crash
-- interrupted. One transaction settling every bet of a match would hold every one of its players' rows for
-- the seconds it takes: their bets on another match, deposits and withdrawals would wait, the time and the
-- lock would grow with the match, and one failure would undo all of it.
--
-- How a run proceeds:
--   * app.declare_winner / app.abandon_match: the match is completed with its winner (or none) and result,
--     settlement_total = its placed bets, settlement_settled = 0, and a run (app.settlement_runs) is
--     recorded; `pg_notify('settlement', match id)` wakes the workers.
--   * app.claim_settlement_batch (a short transaction of its own): takes the next range of players after
--     the run's cursor, holding about p_size bets, as a batch (app.settlement_batches). A player's bets are
--     never split between batches, so each batch credits each of its players once, and batches follow the
--     players' ids, so the wallet pages a batch touches are touched once.
--   * app.settle_batch (a short transaction of its own): takes an unsettled batch with FOR UPDATE SKIP
--     LOCKED (one no other worker holds), counts the house's result on referred players towards their
--     referrers' bonuses (locking those referrers with the batch's players first, in id order), marks the bets
--     won / lost / cancelled, posts their money in one call of app.post_transfers (the ledger rows of its
--     winning or refunded bets, each player credited once, the settled stakes to the house's result), adds
--     them to the match's line of the books and to its settlement_settled (a match change: the version grows and the
--     match is announced with its progress).
--     The batch that settles the last bets checks the run's totals (every bet settled, the credits equal to
--     what the declaration computed) and finishes the run.
--   * app.settle_step: one step (settle a free batch, else claim one), called again and again, each call its
--     own transaction, until there is nothing left: by each server process when notified (both cores settle
--     one match), by the local runtime every 30 s and, where pg_cron exists, by the database every minute,
--     so a run interrupted by a crash or a restart is finished by the next round. A batch cut off mid-way
--     was rolled back whole, so it is simply settled again.
-- Each bet is settled exactly once: a batch is settled under its row lock and marked settled in the same
-- transaction; bets are settled only while 'placed'; and the ledger's unique (type, reference) of each
-- money-moving row is the last guard. Every batch writes its ledger rows and credits together, so
-- app.reconcile() is empty at every instant, in the middle of a run too.
--
-- A lost bet writes no ledger row (bet_lost rows of 0 were written until the settlement became a job; they
-- stay as history): it moves no money, the bet's own status says it was lost, and those rows were a third of
-- a settlement's writes.

/** Tables */

-- The runs: one per completed match. next_user_id is the claim cursor (the players below it are in a
-- batch); expected_credit is what the settlement pays in all (winnings, or refunded stakes), computed when
-- the outcome was fixed, which the last batch checks.
create table app.settlement_runs (
  match_id bigint primary key references public.matches (id) on delete cascade,
  next_user_id bigint not null default 0,
  expected_credit bigint not null check (expected_credit >= 0),
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
comment on table app.settlement_runs is 'One per completed match: the settlement''s claim cursor, its expected credit and when it finished.';
-- the sweep: runs still to finish
create index settlement_runs_unfinished_idx on app.settlement_runs (created_at) where finished_at is null;
revoke all on app.settlement_runs from public, anon, authenticated, service_role;

-- The batches: a range of players (first_user_id to last_user_id) of a run, claimed and then settled.
create table app.settlement_batches (
  match_id bigint not null references app.settlement_runs (match_id) on delete cascade,
  first_user_id bigint not null,
  last_user_id bigint not null,
  claimed_at timestamptz not null default now(),
  settled_at timestamptz,
  bets int check (bets >= 0),
  credited bigint check (credited >= 0),
  constraint settlement_batches_pkey primary key (match_id, first_user_id),
  constraint settlement_batches_range check (last_user_id >= first_user_id),
  constraint settlement_batches_settled check ((settled_at is null) = (bets is null) and (bets is null) = (credited is null))
);
comment on table app.settlement_batches is 'Ranges of players of a settlement run, each settled in a transaction of its own.';
-- the batches still to settle of a run
create index settlement_batches_unsettled_idx on app.settlement_batches (match_id, first_user_id) where settled_at is null;
revoke all on app.settlement_batches from public, anon, authenticated, service_role;

/** Functions: fixing the outcome */

-- Completes a locked match with its outcome (p_winning_team_id, or null when abandoned: every stake is
-- refunded) and records its settlement run: the placed bets to settle and what they will be credited in all
-- (expected_credit), from one pass over them. Wakes the settlement workers. Answers the completed match.
-- Internal: app.declare_winner and app.abandon_match.
create function app.start_settlement(p_match public.matches, p_winning_team_id bigint, p_result text)
returns public.matches
language plpgsql
set search_path = ''
as $$
declare
  v_void boolean := p_winning_team_id is null;
  v_total bigint;
  v_credit bigint;
  v_match public.matches;
begin
  select count(*),
         coalesce(sum(case when v_void then b.amount when b.team_id = p_winning_team_id then b.potential_win else 0 end), 0)
    into v_total, v_credit
    from public.bets b
    where b.match_id = p_match.id and b.status = 'placed';
  update public.matches
    set status = 'completed', winning_team_id = p_winning_team_id, match_result = p_result,
        settlement_total = v_total, settlement_settled = 0, updated_at = now()
    where id = p_match.id
    returning * into v_match;
  insert into app.settlement_runs (match_id, expected_credit, finished_at)
  values (p_match.id, v_credit, case when v_total = 0 then now() end);
  if v_total > 0 then
    perform pg_notify('settlement', p_match.id::text);
  end if;
  return v_match;
end;
$$;
comment on function app.start_settlement(public.matches, bigint, text) is
  'Internal: completes a locked match with its outcome and records its settlement run.';

/** Functions: the batches */

-- Claims the next batch of a run: the players after its cursor whose bets make about p_size (the player
-- holding the p_size-th bet is taken whole, so a player's bets are never split), recorded as an unsettled
-- batch, and moves the cursor past them. Holds the run's row only for this short transaction, so claims of
-- several workers follow one another while their batches settle side by side. Answers the batch, or null
-- when every player of the run is in a batch already (or the run is finished).
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

-- Settles one unsettled batch of a run that no other worker holds (FOR UPDATE SKIP LOCKED), in this
-- transaction: the house's result on each referred player counts towards their referrer's bonus (paid when
-- due; the players the batch credits and those referrers are then locked first, together, in id order),
-- the bets become won / lost / cancelled, and one call of the posting function moves the batch's money,
-- locking the players it credits in id order as every posting does (so batches and other settlements
-- sharing players cannot deadlock; a losing player's row is not touched at all): the ledger rows of its
-- winning bets (+potential win) or, for an abandoned match, of every bet (+stake back), one credit per
-- player, and the stakes of the bets not refunded from the stakes held to the house's result, booked when
-- the outcome was fixed (the run's start), as is the batch's share of the match's line of the books. The
-- match's settlement_settled grows by the bets (announcing the match with its progress). The batch that
-- settles the last bets checks the run's totals (no bet left placed, the credits as expected; a mismatch is
-- an error that keeps the run open and visible), empties an abandoned match's book and finishes the run.
-- Tells the server processes the batch's players have results (`bet_results`; where Realtime exists, a
-- trigger also broadcasts them to each player's private topic). Answers the bets it settled, or null when
-- no batch was free (it then holds no lock). Commits are not waited for on disk: a batch lost in a crash was
-- never seen and is settled again by the sweep, exactly once.
create function app.settle_batch(p_match_id bigint)
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
comment on function app.settle_batch(bigint) is
  'Settles one free batch of a settlement run in this transaction. Caller: the settlement workers (app.settle_step).';

-- The last batch of a run: checks the run adds up (its batches, which cover the players without a gap or
-- an overlap, settled every bet counted when the outcome was fixed, and credited what the declaration
-- computed: a mismatch raises, the run stays open and the workers report it), empties an abandoned match's
-- book (it holds the bets that are not cancelled) and finishes the run. Internal: app.settle_batch, holding
-- the match row.
create function app.finish_settlement(p_match public.matches)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_run app.settlement_runs;
  v_credited bigint;
  v_bets bigint;
  v_unsettled bigint;
begin
  select * into v_run from app.settlement_runs r where r.match_id = p_match.id for update;
  select coalesce(sum(x.credited), 0), coalesce(sum(x.bets), 0), count(*) filter (where x.settled_at is null)
    into v_credited, v_bets, v_unsettled
    from app.settlement_batches x
    where x.match_id = p_match.id;
  if v_unsettled > 0 or v_bets <> p_match.settlement_total or v_credited <> v_run.expected_credit then
    raise exception 'settlement of match % does not add up: % bets of %, % credited of % expected',
      p_match.id, v_bets, p_match.settlement_total, v_credited, v_run.expected_credit;
  end if;
  if p_match.winning_team_id is null then
    update app.match_book k set bets = 0, staked = 0, payout = 0 where k.match_id = p_match.id;
  end if;
  update app.settlement_runs set finished_at = now() where match_id = p_match.id;
  update app.result_corrections set status = 'applied', applied_at = now()
    where match_id = p_match.id and status = 'applying';
end;
$$;
comment on function app.finish_settlement(public.matches) is
  'Internal: checks a settlement run adds up and finishes it (app.settle_batch).';

-- One step of the settlement workers, in the caller's transaction: settles a batch no other worker holds
-- (app.settle_batch), else claims the next batch of the oldest run with players left to claim, else nothing.
-- Answers 'settled', 'claimed' or 'idle'. Each step locks the rows of one run at most and then ends, so two
-- workers never wait for each other across runs (a worker that held one run's row while waiting for a
-- player another worker holds could deadlock with it). A worker calls it again and again, each call a
-- transaction of its own, until it answers 'idle' (batches other workers hold are left to them): every server
-- process when the database announces a run, the local runtime's timer, and pg_cron (the sweep that
-- finishes a run a crash interrupted). A batch holds about p_batch_size bets: 1,000 keeps the wait of its
-- players' rows around 20 ms and costs a tenth less CPU a bet than 500, whose fixed costs (the claim, the
-- commits, the match's progress) weigh twice as much (docs/performance.md); the server passes another only
-- when told to (SETTLEMENT_BATCH_SIZE).
-- Caller: the settlement workers (the database owner).
create function app.settle_step(p_batch_size int default 1000)
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
comment on function app.settle_step(int) is
  'One step of the settlement workers: settle a free batch, else claim one, else idle. Caller: the settlement workers.';

/** Functions: results for the players */

-- Creates (or refreshes), where Supabase Realtime exists, the private result topics `user:{id}`: a trigger
-- broadcasts the results of every settled batch to each of its players' topics (realtime.send, in the
-- transaction that settles the batch), and a policy lets a player receive their own topic and nothing
-- else's. The player joins with a token from GET /api/live/token, whose claims carry their user_id (read by
-- app.current_user_id, as in the API). No client may send on these topics (there is no insert policy).
-- Returns whether Realtime was there; elsewhere it does nothing. Dynamic SQL, because a database without
-- Realtime has neither realtime.send nor realtime.messages. A project that enables Realtime after migrating
-- runs `select app.enable_result_topics();`.
create function app.enable_result_topics()
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is null or to_regclass('realtime.messages') is null then
    return false;
  end if;
  execute $function$
    create or replace function app.broadcast_results()
    returns trigger
    language plpgsql
    set search_path = ''
    as $body$
    begin
      perform realtime.send(r.result, 'result', 'user:' || r.user_id, true)
      from app.bet_results(new.match_id, array(
             select distinct b.user_id from public.bets b
             where b.match_id = new.match_id and b.user_id between new.first_user_id and new.last_user_id)) r;
      return null;
    end;
    $body$
  $function$;
  execute 'comment on function app.broadcast_results() is '
    || quote_literal('Trigger: Realtime Broadcast of a settled batch''s results to each of its players'' private topic user:{id}.');
  execute 'revoke execute on function app.broadcast_results() from public, anon, authenticated, service_role';
  execute 'create or replace trigger settlement_batches_broadcast after update of settled_at on app.settlement_batches '
    || 'for each row when (old.settled_at is null and new.settled_at is not null) execute function app.broadcast_results()';

  execute 'alter table realtime.messages enable row level security';
  execute 'drop policy if exists "result topics: a player receives their own" on realtime.messages';
  execute $policy$
    create policy "result topics: a player receives their own" on realtime.messages
    for select to authenticated
    using (extension = 'broadcast' and topic = 'user:' || (select app.current_user_id()))
  $policy$;
  return true;
end;
$$;
comment on function app.enable_result_topics() is
  'Creates the private Realtime result topics user:{id} (trigger and policy) where Realtime exists; false elsewhere. Owner only.';

-- The results of some players' settled bets on a match, as they are pushed to those players (the server
-- processes ask for the players of a settled batch who have a live stream open): the match ('MI vs CSK'),
-- the outcome (won, lost, or refunded when the match was abandoned), the amount (paid, lost or refunded),
-- the team the player backed, and "corrected": true when it is a correction's new result.
-- Caller: the server processes (the database owner); no API role.
create function app.bet_results(p_match_id bigint, p_user_ids bigint[])
returns table (user_id bigint, result jsonb)
language sql
stable
set search_path = ''
as $$
  select b.user_id, jsonb_build_object(
           'match_id', b.match_id,
           'match', t1.short_name || ' vs ' || t2.short_name,
           'outcome', case when bool_or(b.status = 'won') then 'won'
                           when bool_or(b.status = 'cancelled') then 'refunded' else 'lost' end,
           'amount', sum(case when b.status = 'won' then b.potential_win else b.amount end),
           'team', min(t.name))
         || case when m.correction_reason is not null then '{"corrected": true}'::jsonb else '{}'::jsonb end
  from public.bets b
  join public.matches m on m.id = b.match_id
  join public.teams t1 on t1.id = m.team1_id
  join public.teams t2 on t2.id = m.team2_id
  join public.teams t on t.id = b.team_id
  where b.match_id = p_match_id and b.user_id = any (p_user_ids) and b.status <> 'placed'
  group by b.user_id, b.match_id, t1.short_name, t2.short_name, m.correction_reason
$$;
comment on function app.bet_results(bigint, bigint[]) is
  'The results of some players'' settled bets on a match, as pushed to them. Caller: the server processes.';
/** Function privileges */

revoke execute on function
  app.start_settlement(public.matches, bigint, text),
  app.claim_settlement_batch(bigint, int),
  app.settle_batch(bigint),
  app.finish_settlement(public.matches),
  app.bet_results(bigint, bigint[]),
  app.enable_result_topics()
  from public, anon, authenticated, service_role;
revoke execute on function app.settle_step(int) from public, anon, authenticated, service_role;

/** Schedule */

-- Where pg_cron exists (hosted Supabase: enable it before `supabase db push`), the database itself finishes
-- interrupted runs every minute; elsewhere the local runtime's timer does. cron.schedule with a job name
-- replaces a job of the same name.
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('settle-pending', '* * * * *',
      'do $job$ begin while app.settle_step() <> ''idle'' loop commit; end loop; end $job$');
  end if;
end;
$$;

/** Realtime */

-- Where Supabase Realtime exists, the policy of the private result topics (elsewhere this does nothing).
select app.enable_result_topics();
