-- Sign-in limits count what happened: an attempt counts as a failure once it has failed, not while it
-- runs. app.begin_attempt recorded every attempt as a failure before the password work and
-- app.finish_attempt turned it into a success afterwards, so parallel sign-ins with the right password
-- refused each other (40 at once from one address: 10 refused with a Retry-After of the whole window).
-- Now app.check_attempt checks the limits against finished attempts only, and app.conclude_attempt records
-- an attempt's outcome once it is known, checking the limits again under the advisory locks: an outcome
-- the limits no longer allow is refused (429) and never revealed, so parallel attempts still cannot pass a
-- limit. A re-check of the caller's password (a password change, a second-factor set-up) records its outcome
-- the same way (app.finish_password_check).

drop function app.begin_password_check(text, text);
drop function app.begin_factor_check(text, text);
drop function app.finish_attempt(bigint, boolean);
drop function app.begin_attempt(text, text, text, timestamptz, text);

comment on function app.address_limit_wait(text, text, boolean, int, interval, timestamptz) is
  'Internal: seconds until an address is under a rate limit again (null when it is). For app.check_attempt.';

/** Functions */

-- The one place of the rate-limit rules (above): raises BT429 (DETAIL = seconds to wait) when an attempt
-- by this username from this address (and device) would pass a limit now, counting only attempts whose
-- outcome is known (app.login_attempts holds finished attempts only). Called twice per attempt: by the API
-- before the password work, so an attempt that is refused anyway costs no hashing (a read, no lock), and by
-- app.conclude_attempt under its locks, which is the check that holds. p_now is for tests; the API leaves it
-- to now().
create function app.check_attempt(
  p_action text, p_username text, p_ip text, p_now timestamptz default now(), p_device text default null
)
returns void
language plpgsql
stable
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
  v_device text := left(p_device, 64);
  v_known_device boolean;
  v_wait int;
  v_failures int;
  v_latest timestamptz;
begin
  if p_action is null or p_action not in ('login', 'register') then
    raise exception using errcode = 'BT400', message = 'Unknown action';
  end if;

  v_known_device := p_action = 'login' and v_device is not null and exists (
    select 1 from app.user_devices d join public.users u on u.id = d.user_id
    where lower(u.username) = lower(v_username) and d.device_id = v_device);

  if p_action = 'login' and v_username is not null and (v_known_device or v_ip is not null) then
    -- this username from this browser wherever it is now (a known device), else from this address
    v_wait := app.username_limit_wait(v_username, case when not v_known_device then v_ip end,
                                      case when v_known_device then v_device end, c_pair_failures, c_window, p_now);
    if v_wait is not null then
      perform app.refuse_attempt(c_too_many, v_wait);
    end if;
  end if;
  if p_action = 'login' and not v_known_device and v_ip is not null then
    v_wait := app.address_limit_wait('login', v_ip, false, c_address_login_failures, c_window, p_now);
    if v_wait is not null then
      perform app.refuse_attempt(c_too_many, v_wait);
    end if;
  end if;
  if p_action = 'login' and not v_known_device and v_username is not null and not (v_ip is not null and exists (
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
end;
$$;
comment on function app.check_attempt(text, text, text, timestamptz, text) is
  'Rate limit: raises BT429 (DETAIL = Retry-After seconds) when a login/register attempt would pass a limit now. Caller: API, app.conclude_attempt.';

-- Records the outcome of a finished attempt, once its result is known (the password checked, the account
-- created or refused), in the transaction that acts on it (for a success, the one that opens the session).
-- Under advisory locks per action+address and per action+username (taken in ascending key order) it first
-- checks the limits again with app.check_attempt: an outcome is revealed, and recorded, only while the
-- limits allow another attempt; otherwise the BT429 rolls the transaction back and the caller learns
-- nothing of it (see docs/design.md on why parallel attempts cannot slip past a limit this way). A
-- successful login clears that username's failures from the same address and from the same device: the
-- player who mistyped starts afresh there, while failures from elsewhere (someone else's guessing) keep
-- counting towards the per-username delays. Rows older than a day are purged.
create function app.conclude_attempt(
  p_action text, p_username text, p_ip text, p_success boolean, p_now timestamptz default now(),
  p_device text default null
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_username text := left(btrim(p_username), 255);
  v_ip text := left(p_ip, 64);
  v_device text := left(p_device, 64);
  v_key bigint;
begin
  if p_success is null then
    raise exception using errcode = 'BT400', message = 'Outcome is required';
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
  perform app.check_attempt(p_action, v_username, v_ip, p_now, v_device);

  delete from app.login_attempts where created_at < p_now - interval '1 day';
  insert into app.login_attempts (action, username, ip, device, success, created_at)
  values (p_action, v_username, v_ip, v_device, p_success, p_now);
  if p_success and p_action = 'login' and v_username is not null then
    delete from app.login_attempts
      where action = 'login' and lower(username) = lower(v_username) and not success
        and (ip is not distinct from v_ip or device = v_device);
  end if;
end;
$$;
comment on function app.conclude_attempt(text, text, text, boolean, timestamptz, text) is
  'Rate limit: records a finished login/register attempt (success or failure), or raises BT429 (DETAIL = Retry-After seconds) when the limits no longer allow it. Caller: API.';

-- Before the caller proves their current password again (a change of password): checks the rate limits as
-- for a sign-in of their username (a stolen session cannot guess the password any faster than a stranger)
-- and returns the stored hash. app.finish_password_check records the outcome.
create function app.begin_password_check(p_ip text, p_device text default null)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  perform app.check_attempt('login', v_user.username, p_ip, p_device => p_device);
  return (select c.password_hash from app.credentials c where c.user_id = v_user.id);
end;
$$;
comment on function app.begin_password_check(text, text) is
  'Rate-limited start of a password re-check for the caller: the stored hash. Caller: API.';

-- Before an admin sets up a second factor (starting or confirming it): the proof a stolen session lacks.
-- Checks the rate limits as for a sign-in of their username (app.check_attempt), and returns the caller, the
-- stored password hash and the current second factor as get_credentials does for browser p_device (none:
-- then the password alone proves it). 403 for anyone but an admin. app.finish_password_check records the
-- outcome.
create function app.begin_factor_check(p_ip text, p_device text default null)
returns table (
  user_id bigint, password_hash text, totp_secret text, recovery_code_salt text, second_factor_wait int
)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if v_user.role <> 'admin' then
    raise exception using errcode = 'BT403', message = 'Two-factor sign-in is for administrators';
  end if;
  perform app.check_attempt('login', v_user.username, p_ip, p_device => p_device);
  select c.user_id, c.password_hash, c.totp_secret, c.recovery_code_salt, c.second_factor_wait
    into user_id, password_hash, totp_secret, recovery_code_salt, second_factor_wait
    from app.get_credentials(v_user.username, p_device) c;
  return next;
end;
$$;
comment on function app.begin_factor_check(text, text) is
  'Rate-limited start of the calling admin''s proof for a second-factor set-up: hash, current factor. Caller: API.';

-- The outcome of the caller's re-check of their password (and second factor), for a password change or a
-- second-factor set-up, recorded as a sign-in attempt of their username (app.conclude_attempt: BT429
-- instead when the limits no longer allow it). A success goes in the transaction that makes the change.
create function app.finish_password_check(p_ip text, p_device text, p_success boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  perform app.conclude_attempt('login', v_user.username, p_ip, p_success, p_device => p_device);
end;
$$;
comment on function app.finish_password_check(text, text, boolean) is
  'Records the outcome of the caller''s password (and second-factor) re-check as a sign-in attempt (or raises BT429). Caller: API.';

/** Function privileges */

revoke execute on function
  app.check_attempt(text, text, text, timestamptz, text),
  app.conclude_attempt(text, text, text, boolean, timestamptz, text),
  app.begin_password_check(text, text),
  app.begin_factor_check(text, text),
  app.finish_password_check(text, text, boolean)
  from public, anon, authenticated, service_role;
grant execute on function
  app.check_attempt(text, text, text, timestamptz, text),
  app.conclude_attempt(text, text, text, boolean, timestamptz, text),
  app.begin_password_check(text, text),
  app.begin_factor_check(text, text),
  app.finish_password_check(text, text, boolean)
  to service_role;
