-- A wrong result corrected: an admin proposes the right outcome of a completed match (within 7 days of its
-- declaration, with a reason), a second admin approves, and the match's settlement run settles its bets
-- again, batch by batch: each bet's earlier payout or refund taken back (settlement_reversal) and the bet
-- settled anew. A reversal may take a wallet below zero; such a player may not bet or withdraw until a
-- deposit brings the balance back (app.available_balance); admins list them (app.admin_users).

/** Tables */

alter table public.matches add column correction_reason varchar(200);
comment on column public.matches.correction_reason is
  'Why the result was corrected (the last approved correction''s reason), shown as ''Result corrected: {reason}''; null: never corrected.';

-- The corrections of matches' results: proposed by one admin, decided by another. winning_team_id null:
-- abandoned. declared_at: when the match's outcome was first declared (the 7 days count from it).
create table app.result_corrections (
  id bigint generated always as identity primary key,
  match_id bigint not null references public.matches (id) on delete restrict,
  winning_team_id bigint references public.teams (id),
  result varchar(255) not null,
  reason varchar(200) not null check (char_length(reason) between 10 and 200),
  previous_winning_team_id bigint references public.teams (id),
  previous_result varchar(255) not null,
  declared_at timestamptz not null,
  status varchar(10) not null default 'pending' check (status in ('pending', 'rejected', 'applying', 'applied')),
  proposed_by bigint not null references public.users (id),
  decided_by bigint references public.users (id),
  decided_at timestamptz,
  applied_at timestamptz,
  created_at timestamptz not null default now(),
  constraint result_corrections_decided check ((status = 'pending') = (decided_by is null) and (decided_by is null) = (decided_at is null)),
  constraint result_corrections_second_admin check (status not in ('applying', 'applied') or decided_by <> proposed_by),
  constraint result_corrections_applied check ((status = 'applied') = (applied_at is not null)),
  constraint result_corrections_changes check (winning_team_id is distinct from previous_winning_team_id)
);
comment on table app.result_corrections is
  'Corrections of matches'' results: pending until a second admin approves (applying, then applied) or rejects them.';
-- one correction of a match at a time
create unique index result_corrections_running_key on app.result_corrections (match_id)
  where status in ('pending', 'applying');
-- foreign key, and the corrections of a match, newest first
create index result_corrections_match_id_idx on app.result_corrections (match_id, id);
-- foreign keys
create index result_corrections_winning_team_id_idx on app.result_corrections (winning_team_id)
  where winning_team_id is not null;
create index result_corrections_previous_winning_team_id_idx on app.result_corrections (previous_winning_team_id)
  where previous_winning_team_id is not null;
create index result_corrections_proposed_by_idx on app.result_corrections (proposed_by);
create index result_corrections_decided_by_idx on app.result_corrections (decided_by) where decided_by is not null;
revoke all on app.result_corrections from public, anon, authenticated, service_role;

/** Functions: corrections */

-- A correction as the API answers it.
create function app.result_correction_json(p_correction app.result_corrections)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_correction.id, 'match_id', p_correction.match_id,
    'winning_team_id', p_correction.winning_team_id, 'result', p_correction.result, 'reason', p_correction.reason,
    'previous_winning_team_id', p_correction.previous_winning_team_id,
    'previous_result', p_correction.previous_result, 'status', p_correction.status,
    'proposed_by', p_correction.proposed_by,
    'proposed_by_username', (select u.username from public.users u where u.id = p_correction.proposed_by),
    'decided_by', p_correction.decided_by, 'decided_at', p_correction.decided_at,
    'applied_at', p_correction.applied_at, 'created_at', p_correction.created_at)
$$;
comment on function app.result_correction_json(app.result_corrections) is 'Internal: a correction as the API answers it.';

-- Proposes the correction of a match's outcome: a winning team (p_winning_team_id; the result text is the
-- server's, '{team} won the match', p_result is only length-checked) or abandoned (p_abandon), with a reason
-- of 10 to 200 characters. 400 for a bad request; 404 unknown match; 409 unless the match is completed, its
-- settlement finished, within 7 days of its declaration, no other correction of it pending or applying, and
-- the outcome a change. Holds the match row, so two proposals for one match follow each other. Audited
-- ('match.correction_proposed'). Answers the pending correction.
create function app.propose_result_correction(
  p_match_id bigint, p_winning_team_id bigint, p_result text, p_abandon boolean, p_reason text
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_reason text := btrim(p_reason);
  v_abandon boolean := coalesce(p_abandon, false);
  v_match public.matches;
  v_run app.settlement_runs;
  v_declared_at timestamptz;
  v_correction app.result_corrections;
begin
  if v_reason is null or char_length(v_reason) < 10 then
    raise exception using errcode = 'BT400', message = 'Please give a reason of at least 10 characters';
  end if;
  if char_length(v_reason) > 200 then
    raise exception using errcode = 'BT400', message = 'The reason must be at most 200 characters';
  end if;
  if v_abandon and p_winning_team_id is not null then
    raise exception using errcode = 'BT400', message = 'Give either a winning team or abandon, not both';
  end if;
  if not v_abandon and p_winning_team_id is null then
    raise exception using errcode = 'BT400', message = 'Please select a winning team or abandon the match';
  end if;
  perform app.check_length(p_result, 'Result', 255);

  v_match := app.lock_match(p_match_id);
  if v_match.status <> 'completed' then
    raise exception using errcode = 'BT409', message = 'Only a completed or abandoned match can be corrected';
  end if;
  if not v_abandon and p_winning_team_id not in (v_match.team1_id, v_match.team2_id) then
    raise exception using errcode = 'BT400', message = 'Winning team must be one of the two teams';
  end if;
  if exists (select 1 from app.result_corrections c where c.match_id = v_match.id and c.status in ('pending', 'applying')) then
    raise exception using errcode = 'BT409', message = 'A correction of this match is already running';
  end if;
  select * into v_run from app.settlement_runs r where r.match_id = v_match.id;
  if found and v_run.finished_at is null then
    raise exception using errcode = 'BT409', message = 'The bets of this match are still being settled';
  end if;
  v_declared_at := coalesce(
    (select min(c.declared_at) from app.result_corrections c where c.match_id = v_match.id and c.status <> 'rejected'),
    v_run.created_at);
  if v_declared_at is null or v_declared_at < now() - interval '7 days' then
    raise exception using errcode = 'BT409', message = 'A result can be corrected within 7 days of its declaration only';
  end if;
  if p_winning_team_id is not distinct from v_match.winning_team_id then
    raise exception using errcode = 'BT409', message = 'This is the result of the match already';
  end if;

  insert into app.result_corrections (match_id, winning_team_id, result, reason, previous_winning_team_id,
                                      previous_result, declared_at, proposed_by)
  values (v_match.id, p_winning_team_id,
          coalesce((select t.name || ' won the match' from public.teams t where t.id = p_winning_team_id), 'Match abandoned'),
          v_reason, v_match.winning_team_id, v_match.match_result, v_declared_at, v_admin.id)
  returning * into v_correction;
  perform app.audit(v_admin.id, 'match.correction_proposed', 'match', v_match.id,
    jsonb_build_object('winning_team_id', v_match.winning_team_id, 'match_result', v_match.match_result),
    app.result_correction_json(v_correction));
  return app.result_correction_json(v_correction);
end;
$$;
comment on function app.propose_result_correction(bigint, bigint, text, boolean, text) is
  'Proposes the correction of a completed match''s outcome, for a second admin to approve. Caller: API as an admin.';

-- The corrections of a match, newest first (the pending one, if any, first of all). 404 unknown match.
-- Caller: API as an admin.
create function app.match_result_corrections(p_match_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app.require_admin();
  if not exists (select 1 from public.matches m where m.id = p_match_id) then
    raise exception using errcode = 'BT404', message = 'Match not found';
  end if;
  return coalesce((
    select jsonb_agg(app.result_correction_json(c) order by c.id desc)
    from app.result_corrections c
    where c.match_id = p_match_id), '[]'::jsonb);
end;
$$;
comment on function app.match_result_corrections(bigint) is 'The corrections of a match, newest first. Caller: API as an admin.';

-- Approves (p_approve: the correction applies now) or rejects a pending correction. Only an admin other than
-- the one who proposed it may approve it (403 'A second administrator must approve this correction'); the
-- proposer may withdraw it by rejecting it. 404 unknown, 409 once decided (the row is locked, so of two
-- admins deciding at once the second finds it decided). Approving fixes the new outcome and restarts the
-- match's settlement run (app.start_correction). Audited ('match.correction_approved' /
-- 'match.correction_rejected'). Answers the decided correction.
create function app.decide_result_correction(p_id bigint, p_approve boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_correction app.result_corrections;
  v_match public.matches;
begin
  select * into v_correction from app.result_corrections c where c.id = p_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Correction not found';
  end if;
  if v_correction.status <> 'pending' then
    raise exception using errcode = 'BT409', message = 'This correction has already been decided';
  end if;
  if p_approve and v_correction.proposed_by = v_admin.id then
    raise exception using errcode = 'BT403', message = 'A second administrator must approve this correction';
  end if;
  if p_approve and v_correction.declared_at < now() - interval '7 days' then
    raise exception using errcode = 'BT409', message = 'A result can be corrected within 7 days of its declaration only';
  end if;
  update app.result_corrections
    set status = case when p_approve then 'applying' else 'rejected' end, decided_by = v_admin.id, decided_at = now()
    where id = v_correction.id
    returning * into v_correction;
  if p_approve then
    v_match := app.start_correction(v_correction);
  end if;
  perform app.audit(v_admin.id, case when p_approve then 'match.correction_approved' else 'match.correction_rejected' end,
    'match', v_correction.match_id, jsonb_build_object('correction_id', v_correction.id, 'status', 'pending'),
    app.result_correction_json(v_correction)
      || case when p_approve then jsonb_build_object('bets_to_settle', v_match.settlement_total,
           'total_paid', (select r.expected_credit from app.settlement_runs r where r.match_id = v_match.id))
         else '{}'::jsonb end);
  select * into v_correction from app.result_corrections c where c.id = p_id;
  return app.result_correction_json(v_correction);
end;
$$;
comment on function app.decide_result_correction(bigint, boolean) is
  'Approves (applies) or rejects a pending result correction; never approved by its proposer. Caller: API as an admin.';

-- Fixes an approved correction's outcome on its match (locked here): winner, result, correction_reason,
-- every bet of the match to settle again (settlement_total) and none settled yet; and restarts the match's
-- settlement run from its first player, booked now, with the credit the new outcome pays, its earlier batches
-- dropped (their bets are settled again). Wakes the settlement workers. A match without bets is corrected at
-- once. Answers the match. Internal: app.decide_result_correction.
create function app.start_correction(p_correction app.result_corrections)
returns public.matches
language plpgsql
set search_path = ''
as $$
declare
  v_void boolean := p_correction.winning_team_id is null;
  v_match public.matches := app.lock_match(p_correction.match_id);
  v_total bigint;
  v_credit bigint;
begin
  if exists (select 1 from app.settlement_runs r where r.match_id = v_match.id and r.finished_at is null) then
    raise exception using errcode = 'BT409', message = 'The bets of this match are still being settled';
  end if;
  select count(*),
         coalesce(sum(case when v_void then b.amount
                           when b.team_id = p_correction.winning_team_id then b.potential_win else 0 end), 0)
    into v_total, v_credit
    from public.bets b
    where b.match_id = v_match.id;
  update public.matches
    set winning_team_id = p_correction.winning_team_id, match_result = p_correction.result,
        correction_reason = p_correction.reason, settlement_total = v_total, settlement_settled = 0, updated_at = now()
    where id = v_match.id
    returning * into v_match;
  delete from app.settlement_batches x where x.match_id = v_match.id;
  update app.settlement_runs
    set next_user_id = 0, expected_credit = v_credit, created_at = now(),
        finished_at = case when v_total = 0 then now() end
    where match_id = v_match.id;
  if v_total = 0 then
    update app.result_corrections set status = 'applied', applied_at = now() where id = p_correction.id;
  else
    perform pg_notify('settlement', v_match.id::text);
  end if;
  return v_match;
end;
$$;
comment on function app.start_correction(app.result_corrections) is
  'Internal: fixes an approved correction''s outcome on its match and restarts its settlement run.';

-- Reopens the bets of a batch of a correction's run (p_batch, held by app.settle_batch) that the earlier
-- outcome settled, in the transaction that settles them anew: their players and the referrers of referred
-- ones are locked first, in id order (settling them afterwards locks no one else); one posting takes back
-- each earlier payout or refund (settlement_reversal, BET-{bet}-C{correction}; the only postings that may take
-- a wallet below zero) and moves the bets' stakes from the house's result back to the stakes held, booked
-- at the run's start (the approval), as is the batch's share of the correction's line of the books (minus
-- the stakes, payouts and refunds the earlier outcome moved; the batch then adds what the new one moves);
-- the referred players' house result loses what these bets had counted; a refunded
-- bet's stake goes back into its side's book; and the bets are placed again. Internal: app.settle_batch.
create function app.reopen_settled_bets(p_correction_id bigint, p_batch app.settlement_batches)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_correction app.result_corrections;
  v_booked_at timestamptz;
  v_rows public.transactions[];
  v_bets int;
  v_stakes bigint;
  v_paid bigint;
  v_refunded bigint;
begin
  select * into v_correction from app.result_corrections c where c.id = p_correction_id;
  select r.created_at into v_booked_at from app.settlement_runs r where r.match_id = v_correction.match_id;
  perform 1 from public.users u
    where u.id in (select b.user_id from public.bets b
                   where b.match_id = v_correction.match_id
                     and b.user_id between p_batch.first_user_id and p_batch.last_user_id
                   union all
                   select r.referrer_id from app.referrals r
                   join public.bets b on b.user_id = r.user_id and b.match_id = v_correction.match_id
                   where r.paid_at is null and r.linked_at is null
                     and r.user_id between p_batch.first_user_id and p_batch.last_user_id)
    order by u.id
    for no key update;

  select coalesce(array_agg(app.ledger_row(b.user_id, 'settlement_reversal',
                                           -(case when b.status = 'won' then b.potential_win else b.amount end),
                                           'completed', 'BET-' || b.id || '-C' || v_correction.id) order by b.user_id, b.id)
                    filter (where b.status in ('won', 'cancelled')), '{}'),
         count(*), coalesce(sum(b.amount), 0),
         coalesce(sum(b.potential_win) filter (where b.status = 'won'), 0),
         coalesce(sum(b.amount) filter (where b.status = 'cancelled'), 0)
    into v_rows, v_bets, v_stakes, v_paid, v_refunded
    from public.bets b
    where b.match_id = v_correction.match_id and b.user_id between p_batch.first_user_id and p_batch.last_user_id
      and b.status <> 'placed';
  if v_bets = 0 then
    return;
  end if;
  perform app.post_transfers(
    v_rows,
    array[app.house_transfer('house_result', 'stakes_held', v_stakes, 'stakes_reopened', v_correction.match_id)],
    v_booked_at);
  perform app.book_match_line(v_correction.match_id, v_booked_at, 0, -v_stakes, -v_paid, -v_refunded);

  update app.referrals r set house_result = r.house_result - s.result
    from (select b.user_id, sum(b.amount - case when b.status = 'won' then b.potential_win else 0 end) as result
          from public.bets b
          join app.referrals x on x.user_id = b.user_id and x.paid_at is null and x.linked_at is null
          where b.match_id = v_correction.match_id
            and b.user_id between p_batch.first_user_id and p_batch.last_user_id
            and b.status in ('won', 'lost')
          group by b.user_id) s
    where r.user_id = s.user_id;

  update app.match_book k set bets = k.bets + s.bets, staked = k.staked + s.staked, payout = k.payout + s.payout
    from (select b.team_id, count(*) as bets, sum(b.amount) as staked, sum(b.potential_win) as payout
          from public.bets b
          where b.match_id = v_correction.match_id
            and b.user_id between p_batch.first_user_id and p_batch.last_user_id
            and b.status = 'cancelled'
          group by b.team_id) s
    where k.match_id = v_correction.match_id and k.team_id = s.team_id and k.stripe = 0;

  update public.bets b set status = 'placed', settled_at = null
    where b.match_id = v_correction.match_id and b.user_id between p_batch.first_user_id and p_batch.last_user_id
      and b.status <> 'placed';
end;
$$;
comment on function app.reopen_settled_bets(bigint, app.settlement_batches) is
  'Internal: takes back what a correction''s batch paid or refunded and places its bets again (app.settle_batch).';

/** Functions: settlement settles a correction's run; the below-zero rule; the users list filter */

-- Settles one unsettled batch of a run that no other worker holds (FOR UPDATE SKIP LOCKED), in this
-- transaction: the players it credits (winners, or everyone of an abandoned match) and the referrers a bonus
-- may be paid to are locked in id order (so batches and other settlements sharing players cannot deadlock;
-- a losing player's row is not touched at all), the house's result on each referred player counts towards
-- their referrer's bonus (paid when due), the bets become won / lost / cancelled, and one call of the
-- posting function moves the batch's money: the ledger rows of its winning bets (+potential win) or, for an
-- abandoned match, of every bet (+stake back), one credit per player, and the stakes of the bets not
-- refunded from the stakes held to the house's result, booked when the outcome was fixed (the run's start),
-- as is the batch's share of the match's line of the books. The match's settlement_settled grows by the
-- bets (announcing the match with its progress). The batch that settles the last
-- bets checks the run's totals (no bet left placed, the credits as expected; a mismatch is an error that
-- keeps the run open and visible), empties an abandoned match's book and finishes the run. Tells the
-- server processes the batch's players have results (`bet_results`; where Realtime exists, a trigger also
-- broadcasts them to each player's private topic). Answers the bets it settled, or null when no batch was
-- free (it then holds no lock). Commits are not waited for on disk: a batch lost in a crash was never seen and is settled
-- again by the sweep, exactly once.
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

  perform 1 from public.users u
    where u.id in (select b.user_id from public.bets b
                   where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
                     and b.status = 'placed' and (v_void or b.team_id = v_winner)
                   union all
                   select r.referrer_id from app.referrals r
                   join public.bets b on b.user_id = r.user_id and b.match_id = p_match_id and b.status = 'placed'
                   where r.paid_at is null and r.linked_at is null and not v_void
                     and r.user_id between v_batch.first_user_id and v_batch.last_user_id)
    order by u.id
    for no key update;

  if not v_void then
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
create or replace function app.finish_settlement(p_match public.matches)
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

-- The results of some players' settled bets on a match, as they are pushed to those players (the server
-- processes ask for the players of a settled batch who have a live stream open): the match ('MI vs CSK'),
-- the outcome (won, lost, or refunded when the match was abandoned), the amount (paid, lost or refunded),
-- the team the player backed, and "corrected": true when it is a correction's new result.
-- Caller: the server processes (the database owner); no API role.
create or replace function app.bet_results(p_match_id bigint, p_user_ids bigint[])
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

-- The user's balance available for bets and withdrawals: wallet balance minus pending withdrawals (the one
-- place of "available" is app.pending_withdrawals). A wallet a result correction took below zero has
-- nothing to spend until a deposit brings it back: 409 'Your balance is below zero after a result
-- correction. Recharge to continue.' (the one place of that rule: bets, withdrawals and admin debits all ask
-- here). Callers lock the user row first so the figure cannot change under them.
create or replace function app.available_balance(p_user_id bigint)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user public.users;
begin
  select * into v_user from public.users u where u.id = p_user_id;
  if v_user.below_zero_since is not null then
    raise exception using errcode = 'BT409', message = 'Your balance is below zero after a result correction. Recharge to continue.';
  end if;
  return v_user.wallet_balance - app.pending_withdrawals(v_user.id);
end;
$$;
comment on function app.available_balance(bigint) is 'Internal: wallet balance minus pending withdrawals.';

drop function app.admin_users(text, text, bigint, integer);
-- One page of the admin users list ('Search users...'), newest first: users with an id below p_before (all
-- when null), of status p_status (all when null), only those a result correction left below zero when
-- p_below_zero (users_below_zero_idx), matching p_search (all when null): the id when the search is a
-- number, or a part of username, name or email, case-insensitively. At most p_limit rows.
-- Security definer because the search must use the trigram index (users_search_idx): under row level
-- security PostgreSQL evaluates a non-leakproof operator such as ILIKE only after the policy, never through
-- an index, and would read every user. Admins only (checked here). Callable by service_role.
create function app.admin_users(p_search text, p_status text, p_before bigint, p_limit integer, p_below_zero boolean default false)
returns setof public.users
language plpgsql
stable
security definer
set search_path = ''
-- planned for each search's own pattern: a generic plan cannot tell a rare fragment from a common one
set plan_cache_mode = force_custom_plan
as $$
declare
  v_pattern text := '%' || replace(replace(replace(p_search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  v_id bigint := case when p_search ~ '^[0-9]{1,18}$' then p_search::bigint end;
begin
  perform app.require_admin();
  return query
    select u.*
    from public.users u
    where (p_before is null or u.id < p_before)
      and (p_status is null or u.status = p_status)
      and (not p_below_zero or u.below_zero_since is not null)
      and (p_search is null
           or u.id = v_id
           or (u.username || ' ' || u.name || ' ' || coalesce(u.email, '')) ilike v_pattern)
    order by u.id desc
    limit p_limit;
end;
$$;
comment on function app.admin_users(text, text, bigint, integer, boolean) is
  'Admin users list page: search (id, username, name, email), status, below zero, keyset cursor. Admins only; service_role.';

/** Function privileges */

revoke execute on function app.admin_users(text, text, bigint, integer, boolean) from public, anon, authenticated;
grant execute on function app.admin_users(text, text, bigint, integer, boolean) to service_role;
revoke execute on function
  app.result_correction_json(app.result_corrections),
  app.propose_result_correction(bigint, bigint, text, boolean, text),
  app.match_result_corrections(bigint),
  app.decide_result_correction(bigint, boolean),
  app.start_correction(app.result_corrections),
  app.reopen_settled_bets(bigint, app.settlement_batches)
  from public, anon, authenticated, service_role;
grant execute on function
  app.propose_result_correction(bigint, bigint, text, boolean, text),
  app.match_result_corrections(bigint),
  app.decide_result_correction(bigint, boolean)
  to service_role;
