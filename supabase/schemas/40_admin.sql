-- Back office: approving and rejecting pending transactions, wallet adjustments, user status, the users
-- list and the dashboard. Every function here checks the caller is an active admin in public.users (not
-- only the claim) and appends an audit_log row for each write. No admin may approve, reject or adjust their
-- own money (403 'You cannot approve or adjust your own wallet'): another admin must do it.
--
-- No insider alone on a money path: money an admin releases from adjustment_review_amount up (a credit, a
-- deposit no gateway confirmed, a withdrawal) needs two admins, decided in one place
-- (app.second_admin_approval); what one admin credits in 24 hours (credits asked for, deposits approved) is
-- capped by admin_credit_per_day (app.check_credit_cap).
--
-- Lists are keyset pages (`where id < <cursor> order by id desc limit n + 1`) over an index that starts with
-- the list's filter and ends in id, so a page costs the same on the first and the ten-thousandth page; the
-- indexes the users list searches and filters on are defined with public.users (identity), those of the
-- transactions tabs with public.transactions (wallet).

/** Tables */

-- The latest day (UTC) on which each user got a ledger row. "Active users in the last 7 days" is a count
-- over one narrow row per user plus the rows of one partial day, instead of a distinct count over every
-- ledger row of the week. Written by a statement-level trigger in the transaction that writes the ledger
-- rows, and only on a user's first row of a day: no global hot row, and settling a match whose players
-- were already active that day writes nothing here.
create table app.user_activity (
  user_id bigint primary key references public.users (id) on delete cascade,
  active_on date not null
);
comment on table app.user_activity is
  'The latest UTC day on which each user got a ledger row (kept by app.note_user_activity); for the dashboard.';

-- the dashboard counts the users active after a day
create index user_activity_active_on_idx on app.user_activity (active_on);

-- Each admin's approval of a pending deposit or withdrawal: who approved it and when. From
-- adjustment_review_amount up a second admin's approval completes it, so the first one is kept here until
-- then; every approval of a deposit counts against its admin's daily credit cap.
create table app.transaction_approvals (
  transaction_id bigint not null references public.transactions (id) on delete cascade,
  admin_id bigint not null references public.users (id),
  approved_at timestamptz not null default now(),
  constraint transaction_approvals_pkey primary key (transaction_id, admin_id)
);
comment on table app.transaction_approvals is
  'Admins'' approvals of pending deposits and withdrawals (two from adjustment_review_amount up).';
-- foreign key; an admin's approvals of the last 24 hours (the credit cap)
create index transaction_approvals_admin_idx on app.transaction_approvals (admin_id, approved_at);
revoke all on app.transaction_approvals from public, anon, authenticated, service_role;

/** Functions: four eyes and the credit cap */

-- 'deposit', 'withdrawal' or 'adjustment': a pending transaction as the four-eyes messages name it.
create function app.pending_kind(p_type text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case p_type when 'admin_adjustment' then 'adjustment' else p_type end
$$;
comment on function app.pending_kind(text) is 'Internal: the word the four-eyes messages use for a transaction type.';

-- Four eyes on the money an admin releases: whether p_admin's approval of the pending transaction p_tx
-- (locked by the caller) completes it, recording the approval. A deposit or withdrawal below
-- adjustment_review_amount needs one admin; from that amount, two different ones: the first approval leaves
-- it pending (false), the same admin again is a 403 'A second administrator must approve this deposit'
-- ('… this withdrawal'). A pending admin credit already has its first admin, the one who asked for it (who
-- may not decide it at all: app.lock_pending_transaction). Every approval path calls this, and nothing else
-- decides whether one admin is enough.
create function app.second_admin_approval(p_tx public.transactions, p_admin public.users)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_seconded boolean;
begin
  if exists (select 1 from app.transaction_approvals a where a.transaction_id = p_tx.id and a.admin_id = p_admin.id) then
    raise exception using errcode = 'BT403',
      message = 'A second administrator must approve this ' || app.pending_kind(p_tx.type);
  end if;
  v_seconded := p_tx.requested_by is not null
    or exists (select 1 from app.transaction_approvals a where a.transaction_id = p_tx.id);
  if p_tx.type in ('deposit', 'withdrawal') then
    insert into app.transaction_approvals (transaction_id, admin_id) values (p_tx.id, p_admin.id);
  end if;
  return v_seconded or abs(p_tx.amount) < (app.current_risk_settings()).adjustment_review_amount;
end;
$$;
comment on function app.second_admin_approval(public.transactions, public.users) is
  'Internal: records an admin''s approval of a pending transaction and says whether it completes it (two admins from adjustment_review_amount up).';

-- The answer to a first approval that leaves a transaction waiting for a second admin: 'A second
-- administrator must approve deposits of ₹50,000 or more' (withdrawals likewise; the amount is the setting's).
-- Caller: API, after app.approve_transaction answered a transaction still pending.
create function app.second_admin_notice(p_type text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return format('A second administrator must approve %ss of %s or more', app.pending_kind(p_type),
                app.format_rupees((app.current_risk_settings()).adjustment_review_amount));
end;
$$;
comment on function app.second_admin_notice(text) is
  'The 202 answer of a first approval: a second administrator must approve {kind}s of {amount} or more. Caller: API.';

-- What p_admin_id may still credit: 409 'Daily credit limit reached' unless p_amount more stays within
-- admin_credit_per_day over the last 24 hours. Counted: the credits the admin asked for (pending ones
-- included, rejected ones not) and the deposits they approved (each approval, first or second; not those that
-- failed), except those of p_except (the transaction being approved, counted as p_amount). Serialized per
-- admin by an advisory lock taken first, so two requests of one admin cannot pass the cap together; callers
-- take it before any user row (the lock order of app.admin_adjust_wallet and app.approve_transaction).
create function app.check_credit_cap(p_admin_id bigint, p_amount bigint, p_except bigint default null)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_since timestamptz := now() - interval '24 hours';
  v_credited bigint;
begin
  perform pg_advisory_xact_lock(hashtextextended('admin-credit:' || p_admin_id, 0));
  select coalesce(sum(t.amount), 0) into v_credited
    from public.transactions t
    where t.requested_by = p_admin_id and t.created_at > v_since and t.amount > 0 and t.status <> 'failed';
  select v_credited + coalesce(sum(t.amount), 0) into v_credited
    from app.transaction_approvals a
    join public.transactions t on t.id = a.transaction_id
    where a.admin_id = p_admin_id and a.approved_at > v_since and t.type = 'deposit' and t.status <> 'failed'
      and a.transaction_id is distinct from p_except;
  if v_credited + p_amount > (app.current_risk_settings()).admin_credit_per_day then
    raise exception using errcode = 'BT409', message = 'Daily credit limit reached';
  end if;
end;
$$;
comment on function app.check_credit_cap(bigint, bigint, bigint) is
  'Internal: 409 unless an admin''s credits and approved deposits of 24 hours plus this stay within admin_credit_per_day.';

/** Functions: pending transactions */

-- The pending transaction an admin approves or rejects, locked: 404 unknown, 403 the admin's own wallet, 403
-- an admin credit the admin asked for (four eyes), 409 not pending.
create function app.lock_pending_transaction(p_transaction_id bigint, p_admin public.users)
returns public.transactions
language plpgsql
set search_path = ''
as $$
declare
  v_tx public.transactions;
begin
  select * into v_tx from public.transactions where id = p_transaction_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Transaction not found';
  end if;
  if v_tx.user_id = p_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot approve or adjust your own wallet';
  end if;
  if v_tx.status <> 'pending' then
    raise exception using errcode = 'BT409', message = 'Transaction is not pending';
  end if;
  if v_tx.requested_by = p_admin.id then
    raise exception using errcode = 'BT403', message = 'A second administrator must approve this adjustment';
  end if;
  return v_tx;
end;
$$;
comment on function app.lock_pending_transaction(bigint, public.users) is
  'Internal: locks a pending transaction an admin may decide (not their own wallet, not their own credit).';

-- Approves a pending transaction (not the admin's own). Two admins from adjustment_review_amount up
-- (app.second_admin_approval): a first approval is recorded and answered with the transaction still pending
-- (audit 'transaction.first_approval'); the approval that completes it moves the money. A deposit (money no
-- gateway confirmed) counts against the approving admin's daily credit cap (409 'Daily credit limit
-- reached'), is never approved while its player is self-excluded (409 'This player is self-excluded') and is
-- then completed and credited; a withdrawal is paid (debited, the balance checked again, and passed on to
-- the bank); an admin credit is
-- applied, by an admin other than the one who asked for it (403 'A second administrator must approve this
-- adjustment'). Lock order: the transaction, the admin's credit lock, then the user.
create function app.approve_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions;
  v_tx public.transactions;
  v_complete boolean;
begin
  v_before := app.lock_pending_transaction(p_transaction_id, v_admin);
  v_complete := app.second_admin_approval(v_before, v_admin);
  if v_before.type = 'deposit' then
    perform app.check_credit_cap(v_admin.id, v_before.amount, v_before.id);
    -- the player's row, which a self-exclusion takes too: one that started before is seen here, one that
    -- starts later comes after this approval
    perform 1 from public.users where id = v_before.user_id for update;
    if app.is_self_excluded(v_before.user_id) then
      raise exception using errcode = 'BT409', message = 'This player is self-excluded';
    end if;
  end if;
  if not v_complete then
    perform app.audit(v_admin.id, 'transaction.first_approval', 'transaction', v_before.id, to_jsonb(v_before),
      jsonb_build_object('status', 'pending', 'waiting_for', 'a second administrator'));
    return v_before;
  end if;

  if v_before.type = 'deposit' then
    v_tx := app.apply_deposit(v_before.id, null);
  else
    -- an admin credit, or a withdrawal (negative), paid out: from the wallet to withdrawals_payable and on to
    -- the bank. The posting function refuses a debit the balance does not cover (409 'Insufficient balance').
    select * into v_tx from app.post_transfers(
      array[app.ledger_decision(v_before.id, 'completed')],
      case when v_before.type = 'withdrawal'
        then array[app.house_transfer('withdrawals_payable', 'gateway_clearing', -v_before.amount, 'withdrawal_paid',
                                      p_transaction_id => v_before.id)]
        else '{}' end);
  end if;
  perform app.audit(v_admin.id, 'transaction.approve', 'transaction', v_tx.id, to_jsonb(v_before), to_jsonb(v_tx));
  return v_tx;
end;
$$;
comment on function app.approve_transaction(bigint) is
  'Approves a pending deposit (credit) or withdrawal (debit) of another user; from adjustment_review_amount up a first approval waits for a second admin. Caller: API as an admin.';

-- Rejects a pending transaction (not the admin's own; an admin credit not by the admin who asked for it):
-- marked failed, no money moves.
create function app.reject_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions := app.lock_pending_transaction(p_transaction_id, v_admin);
  v_tx public.transactions;
begin
  -- the pending transfer voided: a withdrawal returned to the available balance, nothing moves
  select * into v_tx from app.post_transfers(array[app.ledger_decision(v_before.id, 'failed')]);
  perform app.audit(v_admin.id, 'transaction.reject', 'transaction', v_tx.id, to_jsonb(v_before), to_jsonb(v_tx));
  return v_tx;
end;
$$;
comment on function app.reject_transaction(bigint) is
  'Rejects another user''s pending transaction (no funds move). Caller: API as an admin.';

/** Functions: users */

-- An admin's wallet adjustment (signed; |amount| 1–100000; notes required, at most 200 characters; never
-- the admin's own wallet; a debit may not take the available balance below zero). A credit counts towards
-- the admin's admin_credit_per_day over the last 24 hours, pending credits included (409 'Daily credit
-- limit reached', app.check_credit_cap, whose lock comes first). A credit of at least adjustment_review_amount
-- is written pending (balance untouched) for another admin to approve or reject; anything else moves money at
-- once. Audited either way.
create function app.admin_adjust_wallet(p_user_id bigint, p_amount bigint, p_notes text)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_settings app.risk_settings := app.current_risk_settings();
  v_notes text := btrim(p_notes);
  v_pending boolean := p_amount >= v_settings.adjustment_review_amount;
  v_before public.users;
  v_after public.users;
  v_tx public.transactions;
begin
  if p_amount is null or p_amount = 0 then
    raise exception using errcode = 'BT400', message = 'Amount must be greater than 0';
  end if;
  if abs(p_amount) > 100000 then
    raise exception using errcode = 'BT400', message = 'Maximum amount is 100,000';
  end if;
  if v_notes is null or v_notes = '' then
    raise exception using errcode = 'BT400', message = 'Please provide a reason for this adjustment';
  end if;
  if length(v_notes) > 200 then
    raise exception using errcode = 'BT400', message = 'Notes must be under 200 characters';
  end if;
  if p_user_id = v_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot approve or adjust your own wallet';
  end if;

  if p_amount > 0 then
    perform app.check_credit_cap(v_admin.id, p_amount);
  end if;

  select * into v_before from public.users where id = p_user_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  -- the user row is locked, so no withdrawal can be requested or approved meanwhile
  if p_amount < 0 and app.available_balance(v_before.id) + p_amount < 0 then
    raise exception using errcode = 'BT409', message = 'Insufficient balance';
  end if;

  select * into v_tx from app.post_transfers(array[
    app.ledger_row(v_before.id, 'admin_adjustment', p_amount, case when v_pending then 'pending' else 'completed' end,
                   p_notes => v_notes, p_requested_by => v_admin.id)]);
  if v_pending then
    perform app.audit(v_admin.id, 'wallet.adjust_requested', 'user', v_before.id,
      jsonb_build_object('wallet_balance', v_before.wallet_balance),
      jsonb_build_object('amount', p_amount, 'notes', v_notes, 'transaction_id', v_tx.id, 'status', 'pending'));
    return v_tx;
  end if;

  select * into v_after from public.users where id = v_before.id;
  perform app.audit(v_admin.id, 'wallet.adjust', 'user', v_before.id,
    jsonb_build_object('wallet_balance', v_before.wallet_balance),
    jsonb_build_object('wallet_balance', v_after.wallet_balance, 'amount', p_amount, 'notes', v_notes,
                       'transaction_id', v_tx.id));
  return v_tx;
end;
$$;
comment on function app.admin_adjust_wallet(bigint, bigint, text) is
  'Credits or debits another user''s wallet with a reason (admin_adjustment). Caller: API as an admin.';

-- Sets a user's status (active, suspended, banned). Every change ends the user's sessions at once (the
-- trigger users_end_sessions, 10_identity.sql). An admin may not change their own status (403).
create function app.set_user_status(p_user_id bigint, p_status text)
returns public.users
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_status text := lower(btrim(p_status));
  v_before public.users;
  v_user public.users;
begin
  if v_status is null or v_status not in ('active', 'suspended', 'banned') then
    raise exception using errcode = 'BT400', message = 'Status must be one of active, suspended, banned';
  end if;
  if p_user_id = v_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot change your own status';
  end if;
  select * into v_before from public.users where id = p_user_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  update public.users set status = v_status where id = v_before.id returning * into v_user;
  perform app.audit(v_admin.id, 'user.set_status', 'user', v_user.id,
    jsonb_build_object('status', v_before.status), jsonb_build_object('status', v_user.status));
  return v_user;
end;
$$;
comment on function app.set_user_status(bigint, text) is
  'Changes a user''s status; every change ends their sessions (trigger). Caller: API as an admin.';

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

-- The counts of the users list's tabs: all users and those of each status. Admins only (checked here).
-- Callable by service_role.
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

/** Functions: linked accounts */

-- GET /api/admin/users/{id}/linked: the accounts linked to a user (app.linked_accounts: a shared bank account
-- or phone number, or a device both signed in with within 90 days), by account id, each with why ('links':
-- reason and detail) and its running time-out or self-exclusion ('exclusion': kind, end, and whether it binds
-- this user already), or null. 404 for an unknown user. Admins only (checked here). Caller: API as an admin.
create function app.admin_linked_accounts(p_user_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app.require_admin();
  if not exists (select 1 from public.users u where u.id = p_user_id) then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', u.id, 'username', u.username, 'name', u.name, 'status', u.status, 'links', l.links,
             'exclusion', (
               select jsonb_build_object('kind', e.kind, 'ends_at', e.ends_at, 'binds_this_user', exists (
                        select 1 from public.protection_changes c
                        where c.user_id = p_user_id
                          and (c.id in (e.id, e.follows_change_id) or c.follows_change_id in (e.id, e.follows_change_id))))
               from app.active_exclusion(u.id, now()) e))
           order by u.id)
    from (select k.user_id, jsonb_agg(jsonb_build_object('reason', k.reason, 'detail', k.detail) order by k.reason) as links
          from app.linked_accounts(p_user_id, interval '90 days') k
          group by k.user_id) l
    join public.users u on u.id = l.user_id), '[]'::jsonb);
end;
$$;
comment on function app.admin_linked_accounts(bigint) is
  'The accounts linked to a user by a bank account, a phone number or a device, each with why. Caller: API as an admin.';

/** Functions: dashboard */

-- Trigger function (statement level, after insert on public.transactions): moves each inserted row's user
-- to the row's day in app.user_activity when that day is later than the one recorded. Each user is looked
-- up by key (a scalar subquery: its cost follows the rows inserted, not the size of app.user_activity) and
-- each user's latest timestamp, not every row's, is converted to a day. Users already recorded for that day
-- are skipped before any write (no row lock, no new row version); the rest are written in user id order, so
-- two settlements sharing players wait for each other instead of deadlocking. Called by the trigger only.
create function app.note_user_activity()
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
comment on function app.note_user_activity() is
  'Trigger: records the latest ledger day of the users of inserted transactions (app.user_activity). Trigger only.';

create trigger transactions_note_user_activity
  after insert on public.transactions
  referencing new table as added
  for each statement execute function app.note_user_activity();

-- The dashboard's statistics, camelCase keys. totalBets, totalTransactionVolume (sum of |amount| of
-- completed deposits and withdrawals) and activeUsers (users with a bet or a ledger row) count the last 7
-- days; the other figures are current totals. recentMatches / recentTransactions: the 5 newest.
-- activeUsers is counted from app.user_activity: users whose latest ledger day is after the window's first
-- day are active; of those whose latest day is that first day, the ones with a row after the window's start
-- (one partial day of the ledger, through the BRIN index). Bets need no summary of their own: every bet is
-- written with its bet_placed ledger row, in the same transaction and so with the same created_at. The
-- transaction volume comes from its partial index alone, the pending counts from the pending index.
create function app.dashboard_stats()
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
comment on function app.dashboard_stats() is
  'Admin dashboard statistics: totals, the last 7 days'' activity, pending queues, newest matches and transactions. Caller: API as an admin.';

/** Function privileges */

revoke execute on function
  app.pending_kind(text),
  app.second_admin_approval(public.transactions, public.users),
  app.second_admin_notice(text),
  app.check_credit_cap(bigint, bigint, bigint),
  app.lock_pending_transaction(bigint, public.users),
  app.approve_transaction(bigint),
  app.reject_transaction(bigint),
  app.admin_adjust_wallet(bigint, bigint, text),
  app.set_user_status(bigint, text),
  app.admin_users(text, text, bigint, integer, boolean),
  app.admin_user_counts(),
  app.admin_linked_accounts(bigint),
  app.note_user_activity(),
  app.dashboard_stats()
  from public, anon, authenticated, service_role;
grant execute on function
  app.second_admin_notice(text),
  app.approve_transaction(bigint),
  app.reject_transaction(bigint),
  app.admin_adjust_wallet(bigint, bigint, text),
  app.set_user_status(bigint, text),
  app.admin_users(text, text, bigint, integer, boolean),
  app.admin_user_counts(),
  app.admin_linked_accounts(bigint),
  app.dashboard_stats()
  to service_role;
