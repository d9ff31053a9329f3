-- A wrong result corrected. An admin who declared the wrong winner (or abandoned a match that was played, or
-- the other way round) proposes the right outcome with a reason; a second admin approves it; its bets are
-- then settled again by the settlement job, batch by batch, each bet once.
--
-- How a correction proceeds:
--   * app.propose_result_correction: on a completed match whose settlement has finished, within 7 days of
--     its declaration, one correction at a time (pending or applying: a unique index is the last guard).
--   * app.decide_result_correction: another admin approves (or either rejects; the proposer's own approval
--     is a 403). Approving fixes the new outcome on the match in one short transaction (winner, result,
--     correction_reason, settlement_total of every bet, settlement_settled 0), and restarts the match's
--     settlement run from its first player, booked at the approval (its batches are settled anew), with the
--     credit the new outcome pays.
--   * Each batch of that run (app.settle_batch, which asks app.reopen_settled_bets first) reopens the bets
--     the earlier outcome settled, in the transaction that settles them anew: each earlier payout or refund
--     is taken back (`settlement_reversal`, reference BET-{bet}-C{correction}), the stakes go back from the
--     house's result to the stakes held, the referred players' house result loses what the bets had counted,
--     a refunded bet's stake is in its side's book again, and the bets are placed once more; the batch then
--     settles them under the new outcome as any batch does (rows BET-{bet}-C{correction} too). A batch cut off
--     by a crash rolled back whole, so it is reopened and settled again by the sweep: each bet once.
--   * The run's last batch marks the correction applied (app.finish_settlement).
-- A reversal may take a wallet below zero (the posting function allows it for reversals only); such a player
-- may not bet or withdraw until a deposit brings the balance back (app.available_balance).

/** Tables */

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

/** Functions: answer shapes */

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

/** Functions: proposing and deciding */

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

/** Functions: applying */

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

/** Function privileges */

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
