-- Rate limits that cannot be turned against players.
--
-- The first rules (20261121000100_identity.sql) locked a username for 15 minutes after 10 failed logins
-- from anywhere, so anyone could lock a known player out, and counted successful registrations against
-- 10 per address per 15 minutes, which blocks real sign-ups behind mobile-carrier and office NAT. Now:
--
--   login, per username AND address together: 10 failures in 15 minutes refuse that pair only, so an
--     attacker's address locks out only itself;
--   login, per address: 30 failures in 15 minutes (any usernames) refuse the address, as before;
--   login, per username across all addresses: from 50 failures in 15 minutes each further attempt waits
--     2, 4, 8, 16, 32, then 60 seconds after the latest failure (a short, growing Retry-After, never a
--     lockout). An address the username signed in from within the last day is exempt: a player's own
--     device is never slowed by someone else's guessing.
--   register, per address: 10 failed (or in-flight) attempts in 15 minutes, as before; successful ones no
--     longer count there, but at most 100 succeed per address in 24 hours (referral farming is kept in
--     check by that and by the bonus being paid only after the referred player's first completed deposit).
--
-- Every refusal is a BT429 whose DETAIL is the number of seconds after which the same attempt would pass:
-- the API sends it as Retry-After.

/** Functions */

-- Internal: seconds until fewer than p_limit attempts of one address (action, success or failure) remain
-- in the window ending at p_now, or null when fewer already do. The p_limit-th newest attempt is the one
-- that must leave the window.
create function app.address_limit_wait(
  p_action text, p_ip text, p_success boolean, p_limit int, p_window interval, p_now timestamptz
)
returns int
language sql
stable
set search_path = ''
as $$
  select greatest(1, ceil(extract(epoch from a.created_at + p_window - p_now)))::int
  from app.login_attempts a
  where a.action = p_action and a.ip = p_ip and a.success = p_success and a.created_at > p_now - p_window
  order by a.created_at desc
  offset p_limit - 1
  limit 1
$$;
comment on function app.address_limit_wait(text, text, boolean, int, interval, timestamptz) is
  'Internal: seconds until an address is under a rate limit again (null when it is). For app.begin_attempt.';

-- Internal: raises the BT429 of a rate limit with the wait in seconds as DETAIL (the API's Retry-After).
create function app.refuse_attempt(p_message text, p_wait_seconds int)
returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = 'BT429', message = p_message, detail = greatest(1, p_wait_seconds)::text;
end;
$$;
comment on function app.refuse_attempt(text, int) is 'Internal: raise a rate-limit refusal carrying its Retry-After seconds.';

drop function app.begin_attempt(text, text, text);

-- The one place of the rate-limit rules (see the header of this file for them). Call it in its own
-- (committed) transaction BEFORE the password work: checking and recording are one step, so parallel
-- requests cannot all pass the check. It serializes attempts per action+ip and per action+username
-- (transaction-level advisory locks, taken in ascending key order so two attempts never wait on each other
-- crosswise), raises BT429 (DETAIL = seconds to wait) when a limit is reached, and otherwise records this
-- attempt as a failure (so it counts while in flight) and returns its id, which app.finish_attempt(id, true)
-- turns into a success. Rows older than a day are purged. p_now is for tests; the API leaves it to now().
create function app.begin_attempt(p_action text, p_username text, p_ip text, p_now timestamptz default now())
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_window constant interval := interval '15 minutes';
  c_pair_failures constant int := 10;
  c_address_login_failures constant int := 30;
  c_username_failures_before_delay constant int := 50;
  c_max_delay_seconds constant int := 60;
  c_address_register_failures constant int := 10;
  c_address_registrations_per_day constant int := 100;
  c_too_many constant text := 'Too many attempts. Please try again in a few minutes.';
  v_username text := left(btrim(p_username), 255);
  v_ip text := left(p_ip, 64);
  v_key bigint;
  v_wait int;
  v_failures int;
  v_latest timestamptz;
  v_id bigint;
begin
  if p_action is null or p_action not in ('login', 'register') then
    raise exception using errcode = 'BT400', message = 'Unknown action';
  end if;
  for v_key in
    select k from unnest(array[
      case when v_ip is not null then hashtextextended('rate:' || p_action || ':ip:' || v_ip, 0) end,
      case when v_username is not null then hashtextextended('rate:' || p_action || ':user:' || lower(v_username), 0) end
    ]) k
    where k is not null
    order by k
  loop
    perform pg_advisory_xact_lock(v_key);
  end loop;

  if p_action = 'login' and v_username is not null and v_ip is not null then
    -- this username from this address
    select greatest(1, ceil(extract(epoch from a.created_at + c_window - p_now)))::int into v_wait
      from app.login_attempts a
      where a.action = 'login' and lower(a.username) = lower(v_username) and a.ip = v_ip
        and not a.success and a.created_at > p_now - c_window
      order by a.created_at desc
      offset c_pair_failures - 1
      limit 1;
    if v_wait is not null then
      perform app.refuse_attempt(c_too_many, v_wait);
    end if;
  end if;
  if p_action = 'login' and v_ip is not null then
    v_wait := app.address_limit_wait('login', v_ip, false, c_address_login_failures, c_window, p_now);
    if v_wait is not null then
      perform app.refuse_attempt(c_too_many, v_wait);
    end if;
  end if;
  if p_action = 'login' and v_username is not null and not (v_ip is not null and exists (
    -- an address this username signed in from within the last day is exempt from the delays
    select 1 from app.login_attempts a
    where a.action = 'login' and lower(a.username) = lower(v_username) and a.ip = v_ip
      and a.success and a.created_at > p_now - interval '1 day'
  )) then
    select count(*)::int, max(a.created_at) into v_failures, v_latest
      from app.login_attempts a
      where a.action = 'login' and lower(a.username) = lower(v_username)
        and not a.success and a.created_at > p_now - c_window;
    if v_failures >= c_username_failures_before_delay then
      -- 2 s after the 50th failure, doubling with each further one, at most 60 s
      v_wait := ceil(extract(epoch from v_latest - p_now))::int
                + least(c_max_delay_seconds, 1 << least(v_failures - c_username_failures_before_delay + 1, 6));
      if v_wait > 0 then
        perform app.refuse_attempt('Too many attempts for this username. Please try again in a minute.', v_wait);
      end if;
    end if;
  end if;
  if p_action = 'register' and v_ip is not null then
    v_wait := app.address_limit_wait('register', v_ip, false, c_address_register_failures, c_window, p_now);
    if v_wait is not null then
      perform app.refuse_attempt(c_too_many, v_wait);
    end if;
    v_wait := app.address_limit_wait('register', v_ip, true, c_address_registrations_per_day, interval '1 day', p_now);
    if v_wait is not null then
      perform app.refuse_attempt('Too many registrations from this network today. Please try again later.', v_wait);
    end if;
  end if;

  delete from app.login_attempts where created_at < p_now - interval '1 day';
  insert into app.login_attempts (action, username, ip, success, created_at)
  values (p_action, v_username, v_ip, false, p_now)
  returning id into v_id;
  return v_id;
end;
$$;
comment on function app.begin_attempt(text, text, text, timestamptz) is
  'Rate limit: raises BT429 (DETAIL = Retry-After seconds) or records a (failed until finished) login/register attempt and returns its id. Caller: API.';

-- Finishes an attempt of app.begin_attempt. p_success = true marks it a success (it stops counting as a
-- failure) and, for a login, clears that username's failures from the same address: the player who mistyped
-- starts afresh there, while failures from other addresses (someone else's guessing) keep counting
-- towards the per-username delays. false leaves it counted as a failure.
create or replace function app.finish_attempt(p_id bigint, p_success boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_attempt app.login_attempts;
begin
  if not coalesce(p_success, false) then
    return;
  end if;
  update app.login_attempts set success = true where id = p_id returning * into v_attempt;
  if found and v_attempt.action = 'login' and v_attempt.username is not null then
    delete from app.login_attempts
      where action = 'login' and lower(username) = lower(v_attempt.username)
        and ip is not distinct from v_attempt.ip and not success;
  end if;
end;
$$;
comment on function app.finish_attempt(bigint, boolean) is
  'Marks an attempt of app.begin_attempt a success (a login clears that username''s failures from its address). Caller: API.';

/** Function privileges */

revoke execute on function
  app.address_limit_wait(text, text, boolean, int, interval, timestamptz),
  app.refuse_attempt(text, int),
  app.begin_attempt(text, text, text, timestamptz),
  app.finish_attempt(bigint, boolean)
  from public, anon, authenticated, service_role;
grant execute on function
  app.begin_attempt(text, text, text, timestamptz),
  app.finish_attempt(bigint, boolean)
  to service_role;
