-- Player protection (responsible gambling): deposit limits, time-outs and self-exclusion. The
-- rules live here and are enforced inside the money functions (app.request_deposit, app.place_bet), under
-- the same row locks as the money they guard.
-- Reality checks, the deposit-limit prompt and statements are in 51_reality_checks_and_statements.sql.
--
--   * Deposit limits per player for a rolling 24 hours ('daily'), 7 days ('weekly') and 30 days ('monthly'),
--     any of them or none. A deposit request that would take the sum of the player's deposits in a window
--     (pending and completed, by request time) above its limit is a 409 naming the limit and what is left;
--     the strictest limit (least left) is the one named. Setting or lowering a limit applies at once; raising
--     or removing one applies 24 hours after the request (pending until then). A new request for a period
--     replaces a change of that period still pending, so a player can cancel a pending raise by asking for
--     the limit in force again.
--   * Time-out for 1, 7, 30 or 42 days, self-exclusion for 6, 12 or 60 months: effective at once and
--     running until the exact end (at the end instant the player may play again). Nothing shortens or lifts
--     them: there is no function that could, the history they live in is append-only, and a request that
--     would end earlier than the one running is refused. While one runs the player may sign in, look and
--     withdraw, but not bet or deposit (403 saying which and until when); bets placed before stand and
--     settle normally, and deposits already requested may still complete (the money was paid).
--   * Only the player changes their own protection: every change is a row of public.protection_changes
--     whose changed_by must equal user_id (a CHECK), written by the player's own request. Admins may read a
--     player's limits and exclusion (app.account_limits with the player's id), never change them, and a
--     status change by an admin leaves them as they are.
--   * An exclusion follows the person: a time-out or self-exclusion binds, from the moment it starts, every
--     account that shares a bank account or a phone number with the player's (app.linked_accounts), with a
--     row of its own that follows the player's (follows_change_id; changed_by is the player), under the same
--     locks; those accounts' sessions end. An admin may apply a running exclusion to an account linked by a
--     device (changed_by is the admin; audited). Nothing lifts either.
--
-- Times are passed in (p_now) so that tests check each boundary at an exact instant. The API passes none: the
-- writes take the transaction's time, the deposit and bet checks the clock once the user row is locked.
-- Dates in messages and statements are India Standard Time (Asia/Kolkata), the product's market.
--
-- Lock order: request_deposit and place_bet lock the user row before these checks (after the match row for a
-- bet), and the protection writes lock the same row, so a deposit or bet either commits before a
-- new limit or exclusion or sees it, and two concurrent deposits cannot together pass a limit.

/** Tables */

-- The append-only history of every protection change: deposit limit requests (period and amount, null =
-- no limit), time-outs / self-exclusions (their end), reality-check intervals and the answer to the
-- deposit-limit prompt (the limit chosen, or none). The state at any instant is derived from it
-- (app.deposit_limit_status, app.active_exclusion), so history and state cannot disagree.
create table public.protection_changes (
  id bigint generated always as identity primary key,
  user_id bigint not null references public.users (id) on delete restrict,
  -- who asked for the change: the player; for an exclusion that follows a linked account's, that account's
  -- player, or the admin who applied it to an account linked by a device
  changed_by bigint not null,
  kind varchar(20) not null check (kind in ('deposit_limit', 'timeout', 'self_exclusion', 'reality_check', 'limit_prompt')),
  period varchar(10) check (period in ('daily', 'weekly', 'monthly')),
  amount bigint check (amount > 0),
  requested_at timestamptz not null default now(),
  -- when it applies: at once, or 24 hours after the request for a raised or removed limit
  effective_at timestamptz not null,
  -- end of a time-out or self-exclusion (exclusive: at this instant it no longer applies)
  ends_at timestamptz,
  -- a reality check's interval (null: no reality checks)
  interval_minutes int check (interval_minutes in (15, 30, 60)),
  -- an exclusion of a linked account that binds this one too, and how they are linked
  follows_change_id bigint references public.protection_changes (id),
  linked_by varchar(20) check (linked_by in ('bank_account', 'phone', 'device')),
  constraint protection_changes_by_player check (changed_by = user_id or follows_change_id is not null),
  constraint protection_changes_follows check (
    (follows_change_id is null) = (linked_by is null)
    and (follows_change_id is null or kind in ('timeout', 'self_exclusion'))
  ),
  constraint protection_changes_shape check (
    (kind = 'deposit_limit' and period is not null and ends_at is null and interval_minutes is null)
    or (kind in ('timeout', 'self_exclusion') and period is null and amount is null and ends_at > effective_at
        and interval_minutes is null)
    or (kind = 'reality_check' and period is null and amount is null and ends_at is null)
    -- the limit chosen at the prompt, or neither period nor amount for 'Not now'
    or (kind = 'limit_prompt' and (period is null) = (amount is null) and ends_at is null and interval_minutes is null)
  ),
  constraint protection_changes_not_backdated check (effective_at >= requested_at)
);
comment on table public.protection_changes is
  'Append-only history of players'' deposit limits, time-outs and self-exclusions (the state is derived from it).';
comment on column public.protection_changes.interval_minutes is
  'A reality check''s interval (15, 30 or 60 minutes; null: no reality checks).';
comment on column public.protection_changes.follows_change_id is
  'The linked account''s time-out or self-exclusion this row applies to this account too.';
-- foreign key, RLS filter, every lookup (one player's changes of one kind, in request order)
create index protection_changes_user_kind_idx on public.protection_changes (user_id, kind, id);
-- foreign key: the accounts an exclusion follows to
create index protection_changes_follows_idx on public.protection_changes (follows_change_id)
  where follows_change_id is not null;

/** Privileges */

revoke all on public.protection_changes from anon, authenticated, service_role;
grant select on public.protection_changes to authenticated, service_role;

/** Policies */

-- Reads only: changes are written by the app.* functions below, never by a role directly.
alter table public.protection_changes enable row level security;
create policy "Users can read their own protection changes; admins read all"
  on public.protection_changes for select to authenticated
  using (user_id = (select app.current_user_id()) or (select app.is_admin()));

/** Triggers */

-- Nobody rewrites the history: not an API role (no grants), not a SECURITY DEFINER function (this trigger).
create function app.refuse_protection_rewrite()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = 'BT403', message = 'Player protection history cannot be changed';
end;
$$;
comment on function app.refuse_protection_rewrite() is
  'Trigger: refuses any update, delete or truncate of public.protection_changes (append-only).';

create trigger protection_changes_append_only
  before update or delete on public.protection_changes
  for each row execute function app.refuse_protection_rewrite();
create trigger protection_changes_no_truncate
  before truncate on public.protection_changes
  for each statement execute function app.refuse_protection_rewrite();

/** Functions: texts */

-- 150000 → '₹1,50,000' (Indian digit grouping, as the SPA's formatRupees).
create function app.format_rupees(p_amount bigint)
returns text
language sql
immutable
set search_path = ''
as $$
  select '₹' || to_char(p_amount, 'FM9,99,99,99,99,99,99,999')
$$;
comment on function app.format_rupees(bigint) is 'Internal: an amount as players read it, e.g. ₹1,50,000.';

-- '22 Nov 2026, 2:30 pm IST': an instant as players in India read it.
create function app.format_ist(p_at timestamptz)
returns text
language sql
stable
set search_path = ''
as $$
  select to_char(p_at at time zone 'Asia/Kolkata', 'FMDD Mon YYYY, FMHH12:MI am') || ' IST'
$$;
comment on function app.format_ist(timestamptz) is 'Internal: an instant in India Standard Time, e.g. 22 Nov 2026, 2:30 pm IST.';

/** Functions: state at an instant */

-- Per period (daily, weekly, monthly, in that order): its rolling window, the limit in force at p_now (null =
-- none) and what is left of it (null without a limit; never below 0). The change in force is the newest one
-- whose time has come, unless a later request replaced it while it was still pending.
create function app.deposit_limit_status(p_user_id bigint, p_now timestamptz)
returns table (period text, span interval, amount bigint, remaining bigint)
language sql
stable
set search_path = ''
as $$
  select p.period, p.span, f.amount,
         case when f.amount is not null then greatest(f.amount - (
           select coalesce(sum(t.amount), 0)
           from public.transactions t
           -- no upper bound: a deposit requested by a transaction that started later but committed first
           -- (created_at is its transaction's start) counts as well
           where t.user_id = p_user_id and t.type = 'deposit' and t.status in ('pending', 'completed')
             and t.created_at > p_now - p.span
         ), 0)::bigint end
  from (values ('daily', interval '24 hours'), ('weekly', interval '7 days'), ('monthly', interval '30 days'))
         p (period, span)
  left join lateral (
    select c.amount
    from public.protection_changes c
    where c.user_id = p_user_id and c.kind = 'deposit_limit' and c.period = p.period and c.effective_at <= p_now
      and not exists (
        select 1 from public.protection_changes d
        where d.user_id = c.user_id and d.kind = 'deposit_limit' and d.period = c.period
          and d.id > c.id and d.requested_at < c.effective_at
      )
    order by c.id desc
    limit 1
  ) f on true
  order by p.span
$$;
comment on function app.deposit_limit_status(bigint, timestamptz) is
  'Internal: per period, the deposit limit in force at an instant and what is left of it.';

-- Limit changes requested by p_now that apply later (raises and removals in their 24 hours) and that no later
-- request replaced: at most one per period.
create function app.pending_deposit_limits(p_user_id bigint, p_now timestamptz)
returns setof public.protection_changes
language sql
stable
set search_path = ''
as $$
  select c.*
  from public.protection_changes c
  where c.user_id = p_user_id and c.kind = 'deposit_limit' and c.requested_at <= p_now and c.effective_at > p_now
    and not exists (
      select 1 from public.protection_changes d
      where d.user_id = c.user_id and d.kind = 'deposit_limit' and d.period = c.period
        and d.id > c.id and d.requested_at <= p_now
    )
  order by c.effective_at, c.id
$$;
comment on function app.pending_deposit_limits(bigint, timestamptz) is
  'Internal: deposit limit changes waiting for their time (at most one per period).';

-- The time-outs and self-exclusions running at p_now: begun, not yet ended (at ends_at the player is free).
create function app.running_exclusions(p_user_id bigint, p_now timestamptz)
returns setof public.protection_changes
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
    select c.*
    from public.protection_changes c
    where c.user_id = p_user_id and c.kind in ('timeout', 'self_exclusion')
      and c.effective_at <= p_now and c.ends_at > p_now;
end;
$$;
comment on function app.running_exclusions(bigint, timestamptz) is
  'Internal: the time-outs and self-exclusions running at an instant.';

-- The running exclusion that ends last (a self-exclusion when both end together), or no row: the one that
-- decides until when the player is barred.
create function app.active_exclusion(p_user_id bigint, p_now timestamptz)
returns setof public.protection_changes
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
    select e.* from app.running_exclusions(p_user_id, p_now) e
    order by e.ends_at desc, e.kind = 'self_exclusion' desc
    limit 1;
end;
$$;
comment on function app.active_exclusion(bigint, timestamptz) is
  'Internal: the time-out or self-exclusion running at an instant that ends last.';

-- A player's protection as the API answers it (GET /api/account/limits and the writes):
-- {"deposit_limits": {"daily", "weekly", "monthly"}, "deposit_remaining": {…}, "pending_changes": [{"period",
-- "amount", "requested_at", "effective_at"}], "timeout_until", "self_excluded_until", "limit_prompt_due"}.
create function app.protection_json(p_user_id bigint, p_now timestamptz)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'deposit_limits', l.limits,
    'deposit_remaining', l.remaining,
    'pending_changes', coalesce((
      select jsonb_agg(jsonb_build_object(
               'period', c.period, 'amount', c.amount, 'requested_at', c.requested_at, 'effective_at', c.effective_at)
             order by c.effective_at, c.id)
      from app.pending_deposit_limits(p_user_id, p_now) c), '[]'::jsonb),
    'timeout_until', e.timeout_until,
    'self_excluded_until', e.self_excluded_until,
    'limit_prompt_due', not exists (
        select 1 from public.protection_changes c
        where c.user_id = p_user_id and c.kind in ('limit_prompt', 'deposit_limit'))
      and not exists (select 1 from public.transactions t where t.user_id = p_user_id and t.type = 'deposit'))
  from (select jsonb_object_agg(s.period, s.amount) as limits, jsonb_object_agg(s.period, s.remaining) as remaining
        from app.deposit_limit_status(p_user_id, p_now) s) l,
       (select max(x.ends_at) filter (where x.kind = 'timeout') as timeout_until,
               max(x.ends_at) filter (where x.kind = 'self_exclusion') as self_excluded_until
        from app.running_exclusions(p_user_id, p_now) x) e
$$;
comment on function app.protection_json(bigint, timestamptz) is
  'Internal: a player''s deposit limits, pending changes and running exclusions as the API answers them.';

/** Functions: the rules */

-- Whether a self-exclusion of the user runs at p_now (a time-out binds only the account that took it).
create function app.is_self_excluded(p_user_id bigint, p_now timestamptz default now())
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return exists (select 1 from app.running_exclusions(p_user_id, p_now) e where e.kind = 'self_exclusion');
end;
$$;
comment on function app.is_self_excluded(bigint, timestamptz) is 'Internal: a self-exclusion of the user runs at p_now.';

-- 403 while a time-out or self-exclusion runs: 'Time-out: You cannot bet or deposit until {end} IST.' /
-- 'Self-exclusion: …'. Called by app.place_bet and app.assert_may_deposit with the user row locked. The
-- instant checked defaults to the clock at the call, after the lock was granted, not the transaction's
-- start: an exclusion that committed while this request waited for the lock began before that instant, so
-- it applies (with now(), one taken by a request that started later would not).
create function app.assert_may_gamble(p_user_id bigint, p_now timestamptz default clock_timestamp())
returns void
language plpgsql
stable
set search_path = ''
as $$
declare
  v_exclusion public.protection_changes;
begin
  select * into v_exclusion from app.active_exclusion(p_user_id, p_now);
  if found then
    raise exception using errcode = 'BT403', message = format('%s: You cannot bet or deposit until %s.',
      case v_exclusion.kind when 'timeout' then 'Time-out' else 'Self-exclusion' end, app.format_ist(v_exclusion.ends_at));
  end if;
end;
$$;
comment on function app.assert_may_gamble(bigint, timestamptz) is
  'Internal: 403 naming the time-out or self-exclusion (and its end) that bars the player from betting and depositing.';

-- The protection rules of a deposit request, for app.request_deposit: locks the user row (so concurrent
-- requests of one player are checked one after the other, each seeing the others' pending deposits), then
-- 403 during a time-out or self-exclusion, then 409 when p_amount is more than is left of the strictest
-- deposit limit: 'Deposit limit reached: Your daily limit is ₹5,000 and ₹1,500 is left.' A retried request
-- (a pending deposit of this player with this reference) adds nothing to the sums and skips the limits.
-- p_now null (the API's case) checks at the clock once the lock is granted (see app.assert_may_gamble).
create function app.assert_may_deposit(p_user_id bigint, p_amount bigint, p_reference text, p_now timestamptz default null)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_limit record;
  v_now timestamptz;
begin
  perform 1 from public.users where id = p_user_id for update;
  v_now := coalesce(p_now, clock_timestamp());
  perform app.assert_may_gamble(p_user_id, v_now);
  if exists (
    select 1 from public.transactions t
    where t.type = 'deposit' and t.reference_id = p_reference and t.user_id = p_user_id and t.status = 'pending'
  ) then
    return;
  end if;
  select s.period, s.amount, s.remaining into v_limit
    from app.deposit_limit_status(p_user_id, v_now) s
    where s.amount is not null
    order by s.remaining, s.span
    limit 1;
  if found and p_amount > v_limit.remaining then
    raise exception using errcode = 'BT409', message = format('Deposit limit reached: Your %s limit is %s and %s.',
      v_limit.period, app.format_rupees(v_limit.amount),
      case when v_limit.remaining > 0 then app.format_rupees(v_limit.remaining) || ' is left' else 'nothing is left' end);
  end if;
end;
$$;
comment on function app.assert_may_deposit(bigint, bigint, text, timestamptz) is
  'Internal: locks the player and refuses a deposit during an exclusion (403) or above a deposit limit (409).';

-- The player whose protection a write changes: the caller (banned callers are refused by app.caller;
-- suspended ones may still protect themselves). Naming anyone else is a 403, for admins too: only the
-- player may change their own limits and exclusions. Locks the user row (the deposit and bet checks hold
-- the same lock); with p_with_linked also the rows of the accounts linked to it by a bank account or a phone
-- number (an exclusion binds them too), all in id order like every other path that locks several players.
create function app.protected_player(p_user_id bigint, p_with_linked boolean default false)
returns public.users
language plpgsql
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if p_user_id is not null and p_user_id <> v_user.id then
    raise exception using errcode = 'BT403',
      message = 'Only the player can change their own limits, time-out or self-exclusion';
  end if;
  perform 1 from public.users u
    where u.id in (select v_user.id union select l.user_id from app.linked_accounts(v_user.id) l where p_with_linked)
    order by u.id
    for update;
  select * into v_user from public.users where id = v_user.id;
  return v_user;
end;
$$;
comment on function app.protected_player(bigint, boolean) is
  'Internal: the caller, locked (and the accounts linked to it), for a protection write; 403 when another user is named.';

-- Whose account a read is for: the caller's (p_user_id null or their own id) or, for an active admin, any
-- existing user's (404 'User not found' otherwise); anyone else gets 403 with p_message.
create function app.readable_account(p_user_id bigint, p_message text)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if p_user_id is null or p_user_id = v_user.id then
    return v_user.id;
  end if;
  if v_user.role <> 'admin' or v_user.status <> 'active' then
    raise exception using errcode = 'BT403', message = p_message;
  end if;
  if not exists (select 1 from public.users where id = p_user_id) then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  return p_user_id;
end;
$$;
comment on function app.readable_account(bigint, text) is
  'Internal: the user a read is for (own, or any for an active admin); 403/404 otherwise.';

/** Functions: player protection (API) */

-- GET /api/account/limits: the caller's protection, or (an active admin's read) another user's.
create function app.account_limits(p_user_id bigint default null, p_now timestamptz default now())
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select app.protection_json(app.readable_account(p_user_id, 'You can only view your own limits'), p_now)
$$;
comment on function app.account_limits(bigint, timestamptz) is
  'A player''s deposit limits, pending changes and running exclusions (own, or any for an admin). Caller: API.';

-- PUT /api/account/limits: sets ('daily' | 'weekly' | 'monthly', amount 500 to 1,00,00,000) or removes (null)
-- the caller's deposit limit of a period. Lower than the limit in force (or a first limit): at once; higher,
-- or a removal: 24 hours later. Asking for the limit in force again cancels a pending change; asking for it
-- with nothing pending writes nothing. Answers the caller's protection after the change.
create function app.set_deposit_limit(
  p_period text, p_amount bigint, p_user_id bigint default null, p_now timestamptz default now()
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(p_user_id);
  v_in_force bigint;
begin
  if p_period is null or p_period not in ('daily', 'weekly', 'monthly') then
    raise exception using errcode = 'BT400', message = 'Period must be one of daily, weekly, monthly';
  end if;
  if p_amount is not null and (p_amount < 500 or p_amount > 10000000) then
    raise exception using errcode = 'BT400', message = 'Deposit limit must be between ₹500 and ₹1,00,00,000';
  end if;
  select s.amount into v_in_force from app.deposit_limit_status(v_user.id, p_now) s where s.period = p_period;

  if p_amount is not distinct from v_in_force then
    if exists (select 1 from app.pending_deposit_limits(v_user.id, p_now) c where c.period = p_period) then
      insert into public.protection_changes (user_id, changed_by, kind, period, amount, requested_at, effective_at)
      values (v_user.id, v_user.id, 'deposit_limit', p_period, p_amount, p_now, p_now);
    end if;
  else
    insert into public.protection_changes (user_id, changed_by, kind, period, amount, requested_at, effective_at)
    values (v_user.id, v_user.id, 'deposit_limit', p_period, p_amount, p_now,
            -- a first or lower limit protects at once; a raise or removal waits out the cool-off
            case when v_in_force is null or p_amount < v_in_force then p_now else p_now + interval '24 hours' end);
  end if;
  return app.protection_json(v_user.id, p_now);
end;
$$;
comment on function app.set_deposit_limit(text, bigint, bigint, timestamptz) is
  'Sets or removes the caller''s deposit limit of a period (raises and removals after 24 hours). Caller: API as the player.';

-- Fails the pending deposits of a player whose self-exclusion starts (audit 'deposit.failed_by_exclusion', no
-- admin): nobody may complete them for the player now, yet a payment that still arrives is credited
-- (app.complete_deposit) and can be withdrawn. A deposit that a webhook or an admin is completing at this very
-- moment (its row locked) is skipped: it completes, or the approval sees the exclusion and refuses.
create function app.fail_pending_deposits(p_user_id bigint)
returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into public.audit_log (admin_id, action, target_type, target_id, before, after)
  select null, 'deposit.failed_by_exclusion', 'transaction', f.id,
         jsonb_build_object('status', 'pending'), jsonb_build_object('status', 'failed', 'amount', f.amount)
  from app.post_transfers(array(
    select app.ledger_decision(t.id, 'failed')
    from public.transactions t
    where t.user_id = p_user_id and t.type = 'deposit' and t.status = 'pending'
    for update skip locked)) f;
end;
$$;
comment on function app.fail_pending_deposits(bigint) is
  'Internal: fails a self-excluded player''s pending deposits (audited), skipping any being completed right now.';

-- Binds p_user_id (locked by the caller) by p_change, the running time-out or self-exclusion of an account
-- linked to it (p_linked_by: 'bank_account', 'phone' or 'device'), from p_now to its end: a row of its own that
-- follows p_change, written by p_by (that account's player, or the admin who applied it). Bets and deposits
-- then answer the same 403 as on that account, a self-exclusion fails the pending deposits, and the account's
-- sessions end (whoever holds them signs in again and finds the account barred).
create function app.follow_exclusion(
  p_user_id bigint, p_change public.protection_changes, p_by bigint, p_linked_by text, p_now timestamptz
)
returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into public.protection_changes
    (user_id, changed_by, kind, requested_at, effective_at, ends_at, follows_change_id, linked_by)
  values (p_user_id, p_by, p_change.kind, p_now, p_now, p_change.ends_at, p_change.id, p_linked_by);
  if p_change.kind = 'self_exclusion' then
    perform app.fail_pending_deposits(p_user_id);
  end if;
  delete from app.sessions where user_id = p_user_id;
end;
$$;
comment on function app.follow_exclusion(bigint, public.protection_changes, bigint, text, timestamptz) is
  'Internal: binds a locked account by a linked account''s running exclusion and ends its sessions.';

-- Starts a time-out or self-exclusion of p_user at p_now until p_ends_at; a request ending no later than the
-- one running is a 409. It binds at once every account linked to the player by a bank account or a phone
-- number (app.follow_exclusion), so a second account of the same person cannot go on playing. The caller
-- holds the locks of the player and of those accounts (app.protected_player with p_with_linked). A
-- self-exclusion also fails the player's pending deposits.
create function app.start_exclusion(p_user public.users, p_kind text, p_ends_at timestamptz, p_now timestamptz)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_running public.protection_changes;
  v_change public.protection_changes;
  v_link record;
begin
  select * into v_running from app.active_exclusion(p_user.id, p_now);
  if found and v_running.ends_at >= p_ends_at then
    raise exception using errcode = 'BT409', message = format('Already excluded: Your %s runs until %s.',
      case v_running.kind when 'timeout' then 'time-out' else 'self-exclusion' end, app.format_ist(v_running.ends_at));
  end if;
  insert into public.protection_changes (user_id, changed_by, kind, requested_at, effective_at, ends_at)
  values (p_user.id, p_user.id, p_kind, p_now, p_now, p_ends_at)
  returning * into v_change;
  if p_kind = 'self_exclusion' then
    perform app.fail_pending_deposits(p_user.id);
  end if;
  for v_link in
    select l.user_id, min(l.reason) as reason
    from app.linked_accounts(p_user.id) l
    group by l.user_id
    order by l.user_id
  loop
    perform app.follow_exclusion(v_link.user_id, v_change, p_user.id, v_link.reason, p_now);
  end loop;
  return app.protection_json(p_user.id, p_now);
end;
$$;
comment on function app.start_exclusion(public.users, text, timestamptz, timestamptz) is
  'Internal: records a time-out or self-exclusion for a locked player (and its linked accounts) unless one running ends later.';

-- POST /api/account/timeout: a time-out of 1, 7, 30 or 42 days for the caller (and their linked accounts), at once.
create function app.take_timeout(p_days int, p_user_id bigint default null, p_now timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(p_user_id, p_with_linked => true);
begin
  if p_days is null or p_days not in (1, 7, 30, 42) then
    raise exception using errcode = 'BT400', message = 'A time-out lasts 1, 7, 30 or 42 days';
  end if;
  return app.start_exclusion(v_user, 'timeout', p_now + p_days * interval '1 day', p_now);
end;
$$;
comment on function app.take_timeout(int, bigint, timestamptz) is
  'Starts the caller''s time-out (1, 7, 30 or 42 days), effective at once. Caller: API as the player.';

-- POST /api/account/self-exclusion: self-exclusion for 6, 12 or 60 months for the caller (and their linked
-- accounts), at once.
create function app.self_exclude(p_months int, p_user_id bigint default null, p_now timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(p_user_id, p_with_linked => true);
begin
  if p_months is null or p_months not in (6, 12, 60) then
    raise exception using errcode = 'BT400', message = 'A self-exclusion lasts 6, 12 or 60 months';
  end if;
  return app.start_exclusion(v_user, 'self_exclusion', p_now + p_months * interval '1 month', p_now);
end;
$$;
comment on function app.self_exclude(int, bigint, timestamptz) is
  'Starts the caller''s self-exclusion (6, 12 or 60 months), effective at once. Caller: API as the player.';

/** Functions: exclusions of linked accounts (admins) */

-- POST /api/admin/users/{id}/linked/{from}/exclusion: an admin applies the running time-out or
-- self-exclusion of account p_from_user_id to account p_user_id, which a device links to it (both signed in
-- with the same device cookie within 90 days: app.linked_accounts). A device may be a family's, so this is an
-- admin's judgement, never automatic; accounts linked by a bank account or a phone number are bound at once
-- anyway. 404 for an unknown account, 409 'These accounts are not linked by a device', 409 'This player has no
-- running exclusion', 409 'This account is already bound by that exclusion'. Both accounts are locked in id
-- order. The exclusion then binds the account like its own (app.follow_exclusion; nobody can lift it) and is
-- audited ('protection.apply_linked_exclusion'). Answers the account's protection. Caller: API as an admin.
create function app.apply_linked_exclusion(p_user_id bigint, p_from_user_id bigint)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_now timestamptz;
  v_exclusion public.protection_changes;
begin
  if (select count(*) from public.users u where u.id in (p_user_id, p_from_user_id)) < 2 then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  if not exists (
    select 1 from app.linked_accounts(p_user_id, interval '90 days') l
    where l.user_id = p_from_user_id and l.reason = 'device'
  ) then
    raise exception using errcode = 'BT409', message = 'These accounts are not linked by a device';
  end if;
  perform 1 from public.users u where u.id in (p_user_id, p_from_user_id) order by u.id for update;
  v_now := clock_timestamp();
  select * into v_exclusion from app.active_exclusion(p_from_user_id, v_now);
  if not found then
    raise exception using errcode = 'BT409', message = 'This player has no running exclusion';
  end if;
  if exists (select 1 from public.protection_changes c
             where c.user_id = p_user_id and c.follows_change_id = v_exclusion.id) then
    raise exception using errcode = 'BT409', message = 'This account is already bound by that exclusion';
  end if;
  perform app.follow_exclusion(p_user_id, v_exclusion, v_admin.id, 'device', v_now);
  perform app.audit(v_admin.id, 'protection.apply_linked_exclusion', 'user', p_user_id, null,
    jsonb_build_object('from_user_id', p_from_user_id, 'kind', v_exclusion.kind, 'ends_at', v_exclusion.ends_at,
                       'linked_by', 'device'));
  return app.protection_json(p_user_id, v_now);
end;
$$;
comment on function app.apply_linked_exclusion(bigint, bigint) is
  'Applies a running exclusion to an account linked to its player by a device (audited). Caller: API as an admin.';

/** Function privileges */

revoke execute on function
  app.refuse_protection_rewrite(),
  app.is_self_excluded(bigint, timestamptz),
  app.format_rupees(bigint),
  app.format_ist(timestamptz),
  app.deposit_limit_status(bigint, timestamptz),
  app.pending_deposit_limits(bigint, timestamptz),
  app.running_exclusions(bigint, timestamptz),
  app.active_exclusion(bigint, timestamptz),
  app.protection_json(bigint, timestamptz),
  app.assert_may_gamble(bigint, timestamptz),
  app.assert_may_deposit(bigint, bigint, text, timestamptz),
  app.protected_player(bigint, boolean),
  app.readable_account(bigint, text),
  app.account_limits(bigint, timestamptz),
  app.set_deposit_limit(text, bigint, bigint, timestamptz),
  app.start_exclusion(public.users, text, timestamptz, timestamptz),
  app.fail_pending_deposits(bigint),
  app.follow_exclusion(bigint, public.protection_changes, bigint, text, timestamptz),
  app.apply_linked_exclusion(bigint, bigint),
  app.take_timeout(int, bigint, timestamptz),
  app.self_exclude(int, bigint, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function
  app.apply_linked_exclusion(bigint, bigint),
  app.account_limits(bigint, timestamptz),
  app.set_deposit_limit(text, bigint, bigint, timestamptz),
  app.take_timeout(int, bigint, timestamptz),
  app.self_exclude(int, bigint, timestamptz)
  to service_role;
