-- Rate limits of sign-in and registration: the attempts (kept in Postgres so every API process sees them),
-- the browsers that have signed in as a user, and the rules that refuse an attempt (app.check_attempt,
-- app.conclude_attempt).

/** Tables */

-- Login and registration attempts for rate limiting (kept in Postgres so every API process sees them): one
-- row per finished attempt, written by app.conclude_attempt with its outcome. An attempt still running
-- counts for nothing (see app.conclude_attempt).
create table app.login_attempts (
  id bigint generated always as identity primary key,
  action varchar(20) not null check (action in ('login', 'register')),
  username varchar(255),
  ip varchar(64),
  success boolean not null,
  created_at timestamptz not null default now(),
  device varchar(64)
);
comment on table app.login_attempts is 'Recent login/registration attempts; rows older than a day are purged.';
comment on column app.login_attempts.device is 'The device cookie id the attempt came with, if any.';
create index login_attempts_username_idx on app.login_attempts (action, lower(username), created_at);
create index login_attempts_ip_idx on app.login_attempts (action, ip, created_at);
create index login_attempts_created_at_idx on app.login_attempts (created_at);

-- Browsers that have signed in as a user: the id inside the API's signed device cookie. Kept as long as
-- the cookie lives (400 days after the latest sign-in). The rate limits spare such a browser the failures
-- others make for that username.
create table app.user_devices (
  user_id bigint not null references public.users (id) on delete cascade,
  device_id varchar(64) not null,
  last_sign_in_at timestamptz not null default now(),
  constraint user_devices_pkey primary key (user_id, device_id)
);
comment on table app.user_devices is 'Browsers (device cookie ids) that have signed in as a user: exempt from others'' failures.';
-- purge of devices whose cookie has expired
create index user_devices_last_sign_in_at_idx on app.user_devices (last_sign_in_at);
-- the other accounts that signed in with a device (linked accounts, app.linked_accounts)
create index user_devices_device_id_idx on app.user_devices (device_id, last_sign_in_at);

/** Privileges */

-- Private tables: no API role reads or writes them; the app.* functions below do.
revoke all on app.login_attempts, app.user_devices
  from public, anon, authenticated, service_role;

/** Functions: rate limits */

-- Rate limits that cannot be turned against players:
--
--   login, per username AND address together: 10 failures in 15 minutes refuse that pair only, so an
--     attacker's address locks out only itself;
--   login, per address: 30 failures in 15 minutes (any usernames) refuse the address;
--   login, per username across all addresses: from 50 failures in 15 minutes each further attempt waits
--     2, 4, 8, 16, 32, then 60 seconds after the latest failure (a short, growing Retry-After, never a
--     lockout). An address the username signed in from within the last day is exempt.
--   login, from a browser that has signed in as the username (the API's signed device cookie, remembered
--     in app.user_devices): only that browser's own failures count, 10 for the username in 15 minutes; the
--     other limits do not apply, so someone else's guessing never slows the player's own browser down.
--   register, per address: 10 failed attempts in 15 minutes; successful ones do not count
--     there (sign-ups behind mobile-carrier and office NAT share an address), but at most 100 succeed per
--     address in 24 hours (referral farming is kept in check by that and by the bonus being paid only
--     once the house's result on the referred player's settled bets reaches it).
--
-- Only finished attempts count, each as what it turned out to be: an attempt still running is neither a
-- failure nor a success (app.conclude_attempt says how parallel attempts still cannot pass a limit). Every
-- refusal is a BT429 whose DETAIL is the number of seconds after which the same attempt would pass, from
-- the attempts that finished: the API sends it as Retry-After.

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
  'Internal: seconds until an address is under a rate limit again (null when it is). For app.check_attempt.';

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

-- Internal: seconds until fewer than p_limit failed logins for a username remain in the window ending at
-- p_now, counting those from one device (p_device) or, without one, from one address (p_ip); null when
-- fewer already do. The p_limit-th newest failure is the one that must leave the window.
create function app.username_limit_wait(
  p_username text, p_ip text, p_device text, p_limit int, p_window interval, p_now timestamptz
)
returns int
language sql
stable
set search_path = ''
as $$
  select greatest(1, ceil(extract(epoch from a.created_at + p_window - p_now)))::int
  from app.login_attempts a
  where a.action = 'login' and lower(a.username) = lower(p_username)
    and case when p_device is not null then a.device = p_device else a.ip = p_ip end
    and not a.success and a.created_at > p_now - p_window
  order by a.created_at desc
  offset p_limit - 1
  limit 1
$$;
comment on function app.username_limit_wait(text, text, text, int, interval, timestamptz) is
  'Internal: seconds until a username is under its per-device or per-address failure limit (null when it is).';

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

/** Function privileges */

-- Functions get EXECUTE for PUBLIC by default: take it away, then grant per function.
revoke execute on function
  app.address_limit_wait(text, text, boolean, int, interval, timestamptz),
  app.refuse_attempt(text, int),
  app.username_limit_wait(text, text, text, int, interval, timestamptz),
  app.check_attempt(text, text, text, timestamptz, text),
  app.conclude_attempt(text, text, text, boolean, timestamptz, text)
  from public, anon, authenticated, service_role;
-- Business functions: the API only, as service_role (never anon/authenticated: nothing reachable through
-- PostgREST may move money or read credentials).
grant execute on function
  app.check_attempt(text, text, text, timestamptz, text),
  app.conclude_attempt(text, text, text, boolean, timestamptz, text)
  to service_role;
