-- Lists that stay fast at millions of rows.
--
-- Every list of the API is a keyset page: `where id < <cursor> order by id desc limit n + 1` over an index
-- that starts with the list's filter and ends in id (transactions (user_id, id), bets (user_id, id),
-- bets (match_id), the primary keys), so a page costs the same on the first and the ten-thousandth page.
-- This migration adds what the admin screens search and filter on, and makes the dashboard's 7-day
-- figures independent of the size of the ledger:
--
-- * users: a trigram index (pg_trgm) over username, name and email serves the partial matches of
--   'Search users...'; a partial index holds the few users who are not active (the Suspended and Banned
--   tabs and their counts). Neither index covers wallet_balance, so balance updates stay HOT.
-- * transactions: partial indexes over the rows people wait for (pending) and the rows that are not bets
--   (deposits, withdrawals, bonuses, adjustments). Settlement writes only bet rows, which neither index
--   holds: settling 100,000 bets maintains no index more than before.
-- * app.user_activity: the latest day (UTC) on which each user got a ledger row. "Active users in the
--   last 7 days" becomes a count over one narrow row per user plus the rows of one partial day, instead
--   of a distinct count over every ledger row of the week. It is written by a statement-level trigger in
--   the transaction that writes the ledger rows, and only on a user's first row of a day: no global hot
--   row, and settling a match whose players were already active that day writes nothing there.

/** Extensions */

-- On Supabase extensions live in schema `extensions` (advisor lint 0014 extension_in_public); vanilla
-- PostgreSQL gets the schema here. Where pg_trgm already exists in another schema, that one is used.
create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;

/** Tables */

create table app.user_activity (
  user_id bigint primary key references public.users (id) on delete cascade,
  active_on date not null
);
comment on table app.user_activity is
  'The latest UTC day on which each user got a ledger row (kept by app.note_user_activity); for the dashboard.';

-- the dashboard counts the users active after a day
create index user_activity_active_on_idx on app.user_activity (active_on);

insert into app.user_activity (user_id, active_on)
select t.user_id, max((t.created_at at time zone 'UTC')::date)
from public.transactions t
group by t.user_id;

/** Indexes */

-- 'Search users...' (spec §2.13): partial matches of username, name or email. The expression is the one
-- app.admin_users filters on, letter for letter (an index serves only its own expression).
do $$
declare
  v_schema text := (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
                    where e.extname = 'pg_trgm');
begin
  execute format(
    'create index users_search_idx on public.users using gin ((username || %L || name || %L || coalesce(email, %L)) %I.gin_trgm_ops)',
    ' ', ' ', '', v_schema);
end;
$$;

-- the Suspended and Banned tabs and their counts: the few users who are not active
create index users_not_active_idx on public.users (status, id) where status <> 'active';

-- the Pending tab, and Pending Withdrawals / pending deposits, newest first (pending rows are few: the
-- admins' queue)
create index transactions_pending_id_idx on public.transactions (id) where status = 'pending';
create index transactions_pending_type_id_idx on public.transactions (type, id) where status = 'pending';

-- the Deposits and Withdrawals tabs (and the rarer types) newest first; bet rows, most of the ledger and
-- all of what settlement writes, stay out
create index transactions_money_idx on public.transactions (type, id)
  where type in ('deposit', 'withdrawal', 'referral_bonus', 'admin_adjustment');

-- the dashboard's transaction volume of the last 7 days, from the index alone
create index transactions_money_volume_idx on public.transactions (created_at) include (amount)
  where status = 'completed' and type in ('deposit', 'withdrawal');

/** Functions: activity */

-- Trigger function (statement level, after insert on public.transactions): moves each inserted row's user
-- to the row's day in app.user_activity when that day is later than the one recorded. Users already
-- recorded for that day are skipped before any write (no row lock, no new row version); the rest are
-- written in user id order, so two settlements sharing players wait for each other instead of deadlocking.
-- Called by the trigger only.
create function app.note_user_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app.user_activity as a (user_id, active_on)
  select d.user_id, d.day
  from (select n.user_id, max((n.created_at at time zone 'UTC')::date) as day
        from added n group by n.user_id) d
  where not exists (select 1 from app.user_activity x where x.user_id = d.user_id and x.active_on >= d.day)
  order by d.user_id
  on conflict (user_id) do update set active_on = greatest(a.active_on, excluded.active_on);
  return null;
end;
$$;
comment on function app.note_user_activity() is
  'Trigger: records the latest ledger day of the users of inserted transactions (app.user_activity). Trigger only.';

create trigger transactions_note_user_activity
  after insert on public.transactions
  referencing new table as added
  for each statement execute function app.note_user_activity();

/** Functions: admin lists */

-- One page of the admin users list (spec §2.13), newest first: users with an id below p_before (all when
-- null), of status p_status (all when null), matching p_search (all when null): the id when the search is
-- a number, or a part of username, name or email, case-insensitively. At most p_limit rows.
-- Security definer because the search must use the trigram index: under row level security PostgreSQL
-- evaluates a non-leakproof operator such as ILIKE only after the policy, never through an index, and
-- would read every user. Admins only (checked here). Callable by service_role.
create function app.admin_users(p_search text, p_status text, p_before bigint, p_limit integer)
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
      and (p_search is null
           or u.id = v_id
           or (u.username || ' ' || u.name || ' ' || coalesce(u.email, '')) ilike v_pattern)
    order by u.id desc
    limit p_limit;
end;
$$;
comment on function app.admin_users(text, text, bigint, integer) is
  'Admin users list page: search (id, username, name, email), status, keyset cursor. Admins only; service_role.';

-- The counts of the users tabs (spec §2.13): all users and those of each status. Admins only (checked
-- here). Callable by service_role.
create function app.admin_user_counts()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_all bigint;
  v_suspended bigint;
  v_banned bigint;
begin
  perform app.require_admin();
  select count(*) into v_all from public.users;
  select count(*) filter (where status = 'suspended'), count(*) filter (where status = 'banned')
    into v_suspended, v_banned
    from public.users where status <> 'active';
  return jsonb_build_object('all', v_all, 'active', v_all - v_suspended - v_banned,
                            'suspended', v_suspended, 'banned', v_banned);
end;
$$;
comment on function app.admin_user_counts() is
  'Counts of the admin users tabs (all, active, suspended, banned). Admins only; service_role.';

/** Functions: dashboard */

-- Unchanged figures (see the admin migration). activeUsers, the users with a bet or a ledger row in the
-- last 7 days, is counted from app.user_activity: users whose latest ledger day is after the window's
-- first day are active; of those whose latest day is that first day, the ones with a row after the window's
-- start (one partial day of the ledger, through the BRIN index). Bets need no summary of their own: every
-- bet is written with its bet_placed ledger row, in the same transaction and so with the same created_at.
-- The transaction volume comes from its partial index alone, the pending counts from the pending index.
create or replace function app.dashboard_stats()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_since timestamptz := now() - interval '7 days';
  v_first_day date := (v_since at time zone 'UTC')::date;
  v_result jsonb;
begin
  perform app.require_admin();
  select jsonb_build_object(
    'totalUsers', (select count(*) from public.users),
    'activeUsers',
      (select count(*) from app.user_activity a where a.active_on > v_first_day)
      + (select count(distinct t.user_id)
         from public.transactions t
         join app.user_activity a on a.user_id = t.user_id and a.active_on = v_first_day
         where t.created_at >= v_since and t.created_at < (v_first_day + 1)::timestamp at time zone 'UTC'),
    'totalMatches', (select count(*) from public.matches),
    'liveMatches', (select count(*) from public.matches where status = 'live'),
    'upcomingMatches', (select count(*) from public.matches where status = 'upcoming'),
    'completedMatches', (select count(*) from public.matches where status = 'completed'),
    'totalBets', (select count(*) from public.bets where created_at >= v_since),
    'totalTransactionVolume', (
      select coalesce(sum(abs(amount)), 0) from public.transactions
      where created_at >= v_since and status = 'completed' and type in ('deposit', 'withdrawal')),
    'pendingDeposits', (select count(*) from public.transactions where type = 'deposit' and status = 'pending'),
    'pendingWithdrawals', (select count(*) from public.transactions where type = 'withdrawal' and status = 'pending'),
    'recentMatches', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', m.id, 'team1_name', t1.name, 'team2_name', t2.name,
               'start_time', m.start_time, 'status', m.status) order by m.created_at desc, m.id desc)
      from (select * from public.matches order by created_at desc, id desc limit 5) m
      join public.teams t1 on t1.id = m.team1_id
      join public.teams t2 on t2.id = m.team2_id), '[]'::jsonb),
    'recentTransactions', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', t.id, 'user_id', t.user_id, 'type', t.type, 'amount', t.amount, 'status', t.status)
             order by t.id desc)
      from (select * from public.transactions order by id desc limit 5) t), '[]'::jsonb)
  ) into v_result;
  return v_result;
end;
$$;

/** Function privileges */

revoke execute on function app.note_user_activity() from public, anon, authenticated, service_role;
revoke execute on function app.admin_users(text, text, bigint, integer) from public, anon, authenticated;
revoke execute on function app.admin_user_counts() from public, anon, authenticated;
grant execute on function app.admin_users(text, text, bigint, integer) to service_role;
grant execute on function app.admin_user_counts() to service_role;
