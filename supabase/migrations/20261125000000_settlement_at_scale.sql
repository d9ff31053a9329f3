-- Settlement of 100,000 bets, made cheaper. Profiled on a match with 100,000
-- players (perf on the backend, WAL bytes per statement), the time went to:
--
-- 1. Users' updates that left their page. Settling credits every winner (abandoning: every player) in one
--    transaction, and a page whose rows all take a new version at once needs room for all of them: the
--    dead versions cannot be pruned before the transaction ends. At fillfactor 70 a third of the updates
--    left their page, and each of those wrote an entry in all seven indexes of users, the trigram index of
--    the admin search among them (45 MB of WAL and half of the credit step). At fillfactor 45 every row of a
--    page can take its new version beside the old one: every credit is a HOT update that touches no index.
--    Existing pages keep their fill until the table is rewritten (VACUUM FULL public.users, or pg_repack).
-- 2. The ledger's foreign key to users. Its check locks the user row (FOR KEY SHARE) for every inserted
--    row; on a row version this transaction created (a credited wallet) that lock is a new WAL record each.
--    Settlement now locks every player of the match first (in id order, FOR NO KEY UPDATE: the lock an
--    update of the balance needs, which does not block other transactions' foreign-key checks), then
--    writes the ledger, then credits: each foreign-key check finds a lock it already holds and writes
--    nothing. Locking all players in one id-ordered pass also means settlement takes its row locks in the
--    same order as every other statement that locks several users (deposits with a referral bonus).
-- 3. Sorting and aggregating 100,000 rows spilled to disk at the default work_mem (4 MB); settlement gets
--    64 MB for its own statements.
-- 4. The activity trigger (app.note_user_activity) skipped the users already recorded for the day with an
--    anti-join that PostgreSQL ran as a hash of every user's activity row (the whole table, 400,000 rows
--    for a settlement of 100,000 bets, growing with the number of users, not of bets); it now looks each
--    inserted row's user up in the primary key, and converts each user's latest timestamp to a day instead
--    of every row's.

/** Storage */

alter table public.users set (fillfactor = 45);

/** Functions: settlement */

-- Settles every placed bet of a match whose row the caller has locked for update (so no bet is placed
-- meanwhile): with a winning team, bets on it become won with a bet_won ledger row of +potential_win and
-- the wallet credited, the others lost with a bet_lost row of 0 (for the history); with no winning team
-- (void), every bet becomes cancelled with a bet_refund row of +amount and the stake credited back, and
-- the match's book is emptied (it holds the bets that are not cancelled).
-- Set-based: five statements whatever the number of bets, in this order: lock the players (lowest id
-- first, so two settlements sharing players cannot deadlock), write the ledger, credit the wallets, settle
-- the bets. Returns the counts and the total credited.
create or replace function app.settle_bets(p_match_id bigint, p_winning_team_id bigint)
returns table (won bigint, lost bigint, cancelled bigint, credited bigint)
language plpgsql
set search_path = ''
-- sorts and aggregates of 100,000 bets in memory, not on disk
set work_mem = '64MB'
as $$
declare
  v_void boolean := p_winning_team_id is null;
begin
  perform 1 from public.users u
    where u.id in (select b.user_id from public.bets b where b.match_id = p_match_id and b.status = 'placed')
    order by u.id
    for no key update;

  insert into public.transactions (user_id, amount, type, status, reference_id)
  select b.user_id,
         case when v_void then b.amount when b.team_id = p_winning_team_id then b.potential_win else 0 end,
         case when v_void then 'bet_refund' when b.team_id = p_winning_team_id then 'bet_won' else 'bet_lost' end,
         'completed',
         'BET-' || b.id
  from public.bets b
  where b.match_id = p_match_id and b.status = 'placed';

  update public.users u set wallet_balance = u.wallet_balance + c.total
  from (select b.user_id, sum(case when v_void then b.amount else b.potential_win end) as total
        from public.bets b
        where b.match_id = p_match_id and b.status = 'placed' and (v_void or b.team_id = p_winning_team_id)
        group by b.user_id) c
  where u.id = c.user_id;

  if v_void then
    update app.match_book k set bets = 0, staked = 0, payout = 0 where k.match_id = p_match_id;
  end if;

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

/** Functions: activity */

-- Unchanged (see the lists_and_search migration), except that each user is looked up by key (a scalar
-- subquery: its cost follows the rows inserted, not the size of app.user_activity) and each user's latest
-- timestamp, not every row's, is converted to a day.
create or replace function app.note_user_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app.user_activity as a (user_id, active_on)
  select d.user_id, d.day
  from (select n.user_id, (max(n.created_at) at time zone 'UTC')::date as day
        from added n group by n.user_id) d
  where coalesce((select x.active_on from app.user_activity x where x.user_id = d.user_id), '-infinity') < d.day
  order by d.user_id
  on conflict (user_id) do update set active_on = greatest(a.active_on, excluded.active_on);
  return null;
end;
$$;
