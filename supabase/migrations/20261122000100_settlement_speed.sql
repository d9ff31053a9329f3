-- Settlement at match-day size: declaring the winner of a match with 100,000 bets
-- updates every bet, writes 100,000 ledger rows and credits every winner in one transaction. Profiled with
-- EXPLAIN ANALYZE (auto_explain, nested statements), the time went to three things fixed here:
--
-- 1. CHECK users_username_charset used the bounded regex '^[A-Za-z0-9_.-]{3,255}$', which PostgreSQL
--    evaluates about 45 times slower than the unbounded one (about 20 µs a row). Every update of a user row
--    (each bet, deposit and settlement credit) re-checks it. The length bounds are already their own CHECK
--    (users_username_check, >= 3) and the column type (varchar(255)), so the regex keeps only the charset.
-- 2. Index maintenance on updates: an update that changes no indexed column and finds room on its page is a
--    HOT update and touches no index. Bets change once (placed → won/lost/cancelled) and users' balances
--    change all the time, so both tables keep free room on each page (fillfactor) and their status and
--    balance columns stay out of every index (the bets-of-a-match index no longer includes status: all bets
--    of a live match are placed anyway).
-- 3. Indexes that settlement fills for nothing: the dashboard's 7-day windows over created_at are ranges over
--    insertion order, which BRIN indexes serve at a fraction of a B-tree's upkeep; "newest first" is the
--    order of ids (they are handed out in insertion order), so lists no longer need created_at in a B-tree
--    (the dashboard's newest transactions follow in 20261122150000_lists_and_search.sql);
--    the referral and withdrawal-account indexes only need the rows that have a value.
-- 4. One settlement statement with a chain of CTEs left the planner guessing (it expected 184 winners for
--    50,000 and looped over the users index) and spilled the CTE to disk. app.settle_bets, shared by
--    declare_winner and abandon_match, runs four plain set-based statements instead, each planned on the
--    real statistics of bets.

/** Constraints */

alter table public.users drop constraint users_username_charset;
alter table public.users add constraint users_username_charset check (username ~ '^[A-Za-z0-9_.-]+$');

/** Storage */

-- Existing pages keep their fill until rewritten (VACUUM FULL); new and rewritten pages leave the room.
alter table public.users set (fillfactor = 70);
alter table public.bets set (fillfactor = 50);

/** Indexes */

drop index public.bets_match_id_status_idx;
-- foreign key, "bets of this match", settlement
create index bets_match_id_idx on public.bets (match_id);

drop index public.bets_user_id_created_at_idx;
-- foreign key, RLS filter, "my bets, newest first"
create index bets_user_id_idx on public.bets (user_id, id);

drop index public.bets_created_at_idx;
-- dashboard window (last 7 days)
create index bets_created_at_idx on public.bets using brin (created_at);

drop index public.users_referred_by_idx;
-- foreign key (referrals): only referred users have one
create index users_referred_by_idx on public.users (referred_by) where referred_by is not null;

drop index public.transactions_bank_account_id_idx;
-- foreign key: only withdrawals name a bank account
create index transactions_bank_account_id_idx on public.transactions (bank_account_id) where bank_account_id is not null;

drop index public.transactions_user_id_created_at_idx;
-- foreign key, RLS filter, "my transactions, newest first"
create index transactions_user_id_idx on public.transactions (user_id, id);

drop index public.transactions_created_at_idx;
-- dashboard window (last 7 days)
create index transactions_created_at_idx on public.transactions using brin (created_at);

/** Functions: settlement */

-- Settles every placed bet of a match whose row the caller has locked for update (so no bet is placed
-- meanwhile): with a winning team, bets on it become won with a bet_won ledger row of +potential_win and
-- the wallet credited, the others lost with a bet_lost row of 0 (for the history); with no winning team
-- (void), every bet becomes cancelled with a bet_refund row of +amount and the stake credited back.
-- Set-based: four statements whatever the number of bets. The wallets it credits are locked first, lowest
-- id first, so two settlements sharing players cannot deadlock. Returns the counts and the total credited.
create function app.settle_bets(p_match_id bigint, p_winning_team_id bigint)
returns table (won bigint, lost bigint, cancelled bigint, credited bigint)
language plpgsql
set search_path = ''
as $$
declare
  v_void boolean := p_winning_team_id is null;
begin
  perform 1 from public.users u
    where u.id in (select b.user_id from public.bets b
                   where b.match_id = p_match_id and b.status = 'placed' and (v_void or b.team_id = p_winning_team_id))
    order by u.id
    for update;

  update public.users u set wallet_balance = u.wallet_balance + c.total
  from (select b.user_id, sum(case when v_void then b.amount else b.potential_win end) as total
        from public.bets b
        where b.match_id = p_match_id and b.status = 'placed' and (v_void or b.team_id = p_winning_team_id)
        group by b.user_id) c
  where u.id = c.user_id;

  insert into public.transactions (user_id, amount, type, status, reference_id)
  select b.user_id,
         case when v_void then b.amount when b.team_id = p_winning_team_id then b.potential_win else 0 end,
         case when v_void then 'bet_refund' when b.team_id = p_winning_team_id then 'bet_won' else 'bet_lost' end,
         'completed',
         'BET-' || b.id
  from public.bets b
  where b.match_id = p_match_id and b.status = 'placed';

  return query
    with settled as (
      update public.bets b
        set status = case when v_void then 'cancelled' when b.team_id = p_winning_team_id then 'won' else 'lost' end,
            settled_at = now()
        where b.match_id = p_match_id and b.status = 'placed'
        returning b.status, b.amount, b.potential_win
    )
    select count(*) filter (where s.status = 'won'),
           count(*) filter (where s.status = 'lost'),
           count(*) filter (where s.status = 'cancelled'),
           coalesce(sum(case s.status when 'won' then s.potential_win when 'cancelled' then s.amount else 0 end), 0)::bigint
    from settled s;
end;
$$;
comment on function app.settle_bets(bigint, bigint) is
  'Internal: settles (winner) or voids (null) every placed bet of a locked match, set-based, with ledger rows.';

-- Unchanged rules (see the matches_and_bets migration); the bets are settled by app.settle_bets.
create or replace function app.declare_winner(p_match_id bigint, p_winning_team_id bigint, p_result text default null)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.matches;
  v_match public.matches;
  v_team_name text;
  v_settled record;
begin
  if p_winning_team_id is null then
    raise exception using errcode = 'BT400', message = 'Please select a winning team';
  end if;
  -- the client's result text is only length-checked: the stored text is always computed below
  perform app.check_length(p_result, 'Result', 255);
  v_before := app.lock_match(p_match_id);
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;
  if v_before.status <> 'live' then
    raise exception using errcode = 'BT409', message = 'Match is not live';
  end if;
  if p_winning_team_id not in (v_before.team1_id, v_before.team2_id) then
    raise exception using errcode = 'BT400', message = 'Winning team must be one of the two teams';
  end if;
  select name into v_team_name from public.teams where id = p_winning_team_id;

  select * into v_settled from app.settle_bets(v_before.id, p_winning_team_id);

  update public.matches
    set status = 'completed', winning_team_id = p_winning_team_id,
        match_result = v_team_name || ' won the match', updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.declare_winner', 'match', v_match.id, to_jsonb(v_before),
    to_jsonb(v_match) || jsonb_build_object('bets_won', v_settled.won, 'bets_lost', v_settled.lost,
                                            'total_paid', v_settled.credited));
  return v_match;
end;
$$;

-- Unchanged rules (see the matches_and_bets migration); the bets are voided by app.settle_bets.
create or replace function app.abandon_match(p_match_id bigint)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.matches := app.lock_match(p_match_id);
  v_match public.matches;
  v_settled record;
begin
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;

  select * into v_settled from app.settle_bets(v_before.id, null);

  update public.matches
    set status = 'completed', winning_team_id = null, match_result = 'Match abandoned', updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.abandon', 'match', v_match.id, to_jsonb(v_before),
    to_jsonb(v_match) || jsonb_build_object('bets_cancelled', v_settled.cancelled, 'total_refunded', v_settled.credited));
  return v_match;
end;
$$;

/** Function privileges */

revoke execute on function app.settle_bets(bigint, bigint) from public, anon, authenticated, service_role;
