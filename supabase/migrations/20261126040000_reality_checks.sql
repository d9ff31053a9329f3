-- Reality checks and the deposit-limit prompt: player protection for a player who stays for a whole match
-- on a phone.
--
--   * Reality checks: a player chooses how often the app interrupts play to say how long they have played
--     and what they have won or lost since the session began: every 15, 30 or 60 minutes (60 until they
--     choose) or never. The choice is a protection change like the others (public.protection_changes,
--     kind 'reality_check'), so it is audited in the same append-only history.
--   * The play session: the time and the figures come from the server, never from the device's clock. A
--     play session begins at sign-in, and again when the player comes back after 30 minutes without a
--     request (app.sessions.play_started_at, moved by app.authenticate, which already touches the session
--     at most once a minute): a sign-in kept for days is not one session of days. Its net result is what
--     the player's bets paid back (winnings and refunds) minus what they staked since it began.
--   * The deposit-limit prompt: before a player's first deposit the app asks whether to set a deposit limit
--     ('Set limit' or 'Not now'). The answer is a protection change (kind 'limit_prompt', with the limit
--     chosen, if any) and is given once: a second answer is a 409. The prompt is due while the player has
--     neither answered it, nor requested a deposit, nor ever set a limit (app.protection_json).

/** Tables */

alter table public.protection_changes add column interval_minutes int;
comment on column public.protection_changes.interval_minutes is
  'A reality check''s interval (15, 30 or 60 minutes; null: no reality checks).';
alter table public.protection_changes
  drop constraint protection_changes_kind_check,
  add constraint protection_changes_kind_check
    check (kind in ('deposit_limit', 'timeout', 'self_exclusion', 'reality_check', 'limit_prompt')),
  add constraint protection_changes_interval_minutes_check check (interval_minutes in (15, 30, 60)),
  drop constraint protection_changes_shape,
  add constraint protection_changes_shape check (
    (kind = 'deposit_limit' and period is not null and ends_at is null and interval_minutes is null)
    or (kind in ('timeout', 'self_exclusion') and period is null and amount is null and ends_at > effective_at
        and interval_minutes is null)
    or (kind = 'reality_check' and period is null and amount is null and ends_at is null)
    -- the limit chosen at the prompt, or neither period nor amount for 'Not now'
    or (kind = 'limit_prompt' and (period is null) = (amount is null) and ends_at is null and interval_minutes is null)
  );

alter table app.sessions add column play_started_at timestamptz not null default now();
comment on column app.sessions.play_started_at is
  'When the current play session began: at sign-in, or at the first request after 30 minutes without one.';

/** Functions: the session's start */

create or replace function app.authenticate(
  p_token_hash text, p_access text, p_ip text default null, p_require_mfa boolean default false
)
returns app.request_caller
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_caller app.request_caller;
  v_session_id bigint;
  v_last_seen timestamptz;
  v_ip text;
begin
  if p_access is null or p_access not in ('user', 'admin') then
    raise exception using errcode = 'BT400', message = 'Unknown access level';
  end if;
  select s.id, s.user_id, u.role, u.status, s.last_seen_at, s.ip
    into v_session_id, v_caller.user_id, v_caller.role, v_caller.status, v_last_seen, v_ip
    from app.sessions s
    join public.users u on u.id = s.user_id
    where s.token_hash = p_token_hash and s.expires_at > now() and u.status <> 'banned';
  if v_caller.user_id is null then
    raise exception using errcode = 'BT401', message = 'Not authenticated';
  end if;
  if v_last_seen < now() - interval '1 minute' or (p_ip is not null and left(p_ip, 64) is distinct from v_ip) then
    update app.sessions
      set last_seen_at = now(), ip = coalesce(left(p_ip, 64), ip),
          expires_at = app.session_expiry(v_caller.role, created_at, now()),
          -- back after 30 minutes away: a new play session (the reality checks count from here)
          play_started_at = case when last_seen_at <= now() - interval '30 minutes' then now() else play_started_at end
      where token_hash = p_token_hash;
  end if;
  if p_access = 'admin' and (v_caller.role <> 'admin' or v_caller.status <> 'active') then
    raise exception using errcode = 'BT403', message = 'Admin access required';
  end if;
  if p_access = 'admin' and p_require_mfa and not exists (
    select 1 from app.credentials c where c.user_id = v_caller.user_id and c.totp_secret is not null
  ) then
    raise exception using errcode = 'BT403',
      message = 'Turn on two-factor sign-in on your Security screen to use the admin pages';
  end if;
  -- app_role admin lets RLS show everything: only while the admin is active.
  perform set_config('request.jwt.claims', json_build_object(
    'role', 'authenticated', 'user_id', v_caller.user_id, 'session_id', v_session_id,
    'app_role', case when v_caller.role = 'admin' and v_caller.status = 'active' then 'admin' else 'user' end
  )::text, true);
  return v_caller;
end;
$$;

/** Functions: state */

-- A player's protection as the API answers it, now with whether the deposit-limit prompt is due.
create or replace function app.protection_json(p_user_id bigint, p_now timestamptz)
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

-- A player's reality-check setting as the API answers it: {"interval_minutes": 15 | 30 | 60 | null}, the
-- newest choice, 60 before any.
create function app.reality_check_json(p_user_id bigint)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce((
    select jsonb_build_object('interval_minutes', c.interval_minutes)
    from public.protection_changes c
    where c.user_id = p_user_id and c.kind = 'reality_check'
    order by c.id desc
    limit 1), '{"interval_minutes": 60}'::jsonb)
$$;
comment on function app.reality_check_json(bigint) is
  'Internal: a player''s reality-check interval in minutes (null: off; 60 until chosen).';

/** Functions: player protection (API) */

-- GET /api/account/reality-check: the caller's reality-check interval.
create function app.reality_check()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select app.reality_check_json((app.caller(false)).id)
$$;
comment on function app.reality_check() is 'The caller''s reality-check interval. Caller: API.';

-- PUT /api/account/reality-check: every 15, 30 or 60 minutes, or never (null); applies at once. The same
-- choice again writes nothing.
create function app.set_reality_check(p_interval_minutes int, p_now timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(null);
begin
  if p_interval_minutes is not null and p_interval_minutes not in (15, 30, 60) then
    raise exception using errcode = 'BT400', message = 'A reality check comes every 15, 30 or 60 minutes, or never';
  end if;
  if app.reality_check_json(v_user.id) is distinct from jsonb_build_object('interval_minutes', p_interval_minutes) then
    insert into public.protection_changes (user_id, changed_by, kind, interval_minutes, requested_at, effective_at)
    values (v_user.id, v_user.id, 'reality_check', p_interval_minutes, p_now, p_now);
  end if;
  return app.reality_check_json(v_user.id);
end;
$$;
comment on function app.set_reality_check(int, timestamptz) is
  'Sets the caller''s reality-check interval (15, 30, 60 minutes or null for never). Caller: API as the player.';

-- GET /api/account/play-session: the request's play session, {started_at, now, interval_minutes, staked,
-- won, net}: when it began and the server's time (the app's clock runs from these, not the device's), and
-- what the player's bets did since: staked, paid back (winnings and refunds) and the difference.
create function app.play_session()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_started_at timestamptz;
  v_staked bigint;
  v_won bigint;
begin
  select s.play_started_at into v_started_at
    from app.sessions s where s.id = app.current_session_id() and s.user_id = v_user.id;
  if not found then
    raise exception using errcode = 'BT401', message = 'Not authenticated';
  end if;
  select coalesce(-sum(t.amount) filter (where t.type = 'bet_placed'), 0),
         coalesce(sum(t.amount) filter (where t.type in ('bet_won', 'bet_refund')), 0)
    into v_staked, v_won
    from public.transactions t
    where t.user_id = v_user.id and t.type in ('bet_placed', 'bet_won', 'bet_refund') and t.created_at >= v_started_at;
  return jsonb_build_object('started_at', v_started_at, 'now', now(),
    'interval_minutes', app.reality_check_json(v_user.id) -> 'interval_minutes',
    'staked', v_staked, 'won', v_won, 'net', v_won - v_staked);
end;
$$;
comment on function app.play_session() is
  'The request''s play session: its start, the server''s time, the reality-check interval and the net result of bets since. Caller: API.';

-- POST /api/account/limit-prompt: the caller's answer to the prompt before their first deposit: a limit
-- (period and amount, set as app.set_deposit_limit sets one) or neither ('Not now'). Answered once: a
-- second answer is a 409. Answers the caller's protection after it.
create function app.answer_limit_prompt(p_period text, p_amount bigint, p_now timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(null);
begin
  if exists (select 1 from public.protection_changes c where c.user_id = v_user.id and c.kind = 'limit_prompt') then
    raise exception using errcode = 'BT409', message = 'You have already answered the deposit limit question';
  end if;
  if (p_period is null) <> (p_amount is null) then
    raise exception using errcode = 'BT400', message = 'Choose a period and an amount for the limit';
  end if;
  if p_period is not null then
    perform app.set_deposit_limit(p_period, p_amount, v_user.id, p_now);
  end if;
  insert into public.protection_changes (user_id, changed_by, kind, period, amount, requested_at, effective_at)
  values (v_user.id, v_user.id, 'limit_prompt', p_period, p_amount, p_now, p_now);
  return app.protection_json(v_user.id, p_now);
end;
$$;
comment on function app.answer_limit_prompt(text, bigint, timestamptz) is
  'Records the caller''s one answer to the deposit-limit prompt (a limit, or none). Caller: API as the player.';

/** Function privileges */

revoke execute on function
  app.reality_check_json(bigint),
  app.reality_check(),
  app.set_reality_check(int, timestamptz),
  app.play_session(),
  app.answer_limit_prompt(text, bigint, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function
  app.reality_check(),
  app.set_reality_check(int, timestamptz),
  app.play_session(),
  app.answer_limit_prompt(text, bigint, timestamptz)
  to service_role;
