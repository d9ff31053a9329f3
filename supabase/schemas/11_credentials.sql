-- Credentials: password hashes, the second factor (TOTP secrets sealed by the API, recovery codes) and the
-- lock on wrong codes; the sign-in's lookup, re-checking and changing a password, setting up two-factor
-- sign-in. Scrypt hashes and TOTP codes are computed and checked by the API, never in SQL.

/** Tables */

-- Password hashes (scrypt computed by the API, never in SQL). Private: not in an exposed schema.
create table app.credentials (
  user_id bigint primary key references public.users (id) on delete cascade,
  password_hash varchar(255) not null check (length(password_hash) > 0),
  updated_at timestamptz not null default now(),
  -- the second factor: the active secret and one being set up, both sealed by the API (app.is_sealed_secret),
  -- the last time step used (a code is refused unless it is newer, so none works twice), when it was turned on
  -- (its change ends the user's sessions), and the salt of its recovery codes
  totp_secret varchar(200),
  totp_pending_secret varchar(200),
  totp_last_step bigint,
  totp_enrolled_at timestamptz,
  recovery_code_salt varchar(64)
);
comment on table app.credentials is 'Password hashes, one per user. Read only through app.get_credentials.';
comment on column app.credentials.totp_secret is
  'TOTP secret (RFC 6238, 6 digits, 30 s) sealed with AES-256-GCM under TOTP_ENCRYPTION_KEY by the API; a base32 one is from before and is sealed at its next use; null: no second factor.';
comment on column app.credentials.totp_enrolled_at is 'When the current second factor was turned on.';
comment on column app.credentials.recovery_code_salt is
  'Per-user HMAC-SHA256 key (hex) of the recovery codes'' hashes; null: codes from before, kept as SHA-256.';

-- A user's one-time recovery codes for two-factor sign-in, as HMAC-SHA256 under the user's own salt
-- (app.credentials.recovery_code_salt), computed by the API: a copy of the table does not tell whether two
-- users hold the same code, and each user's codes must be guessed on their own. Codes set up before the salt
-- are plain SHA-256 and keep working until the admin sets the second factor up again.
create table app.recovery_codes (
  user_id bigint not null references public.users (id) on delete cascade,
  code_hash varchar(64) not null,
  used_at timestamptz,
  constraint recovery_codes_pkey primary key (user_id, code_hash)
);
comment on table app.recovery_codes is
  'HMAC-SHA256 under the user''s salt (SHA-256 before it) of their one-time recovery codes (hex); used_at once spent.';

-- Wrong second-factor codes (an authenticator's or a recovery code) entered for an account, at sign-in or to
-- prove a set-up. Ten within 15 minutes lock the account's second factor for every browser that has not
-- signed in as the account (app.second_factor_wait): guessing codes with a stolen password stops, while the
-- owner's own browser is spared. Kept a day.
create table app.second_factor_failures (
  id bigint generated always as identity primary key,
  user_id bigint not null references public.users (id) on delete cascade,
  ip varchar(64),
  device varchar(64),
  created_at timestamptz not null default now()
);
comment on table app.second_factor_failures is 'Wrong second-factor codes per account (the lock); purged after a day.';
-- the lock of one account; foreign key
create index second_factor_failures_user_idx on app.second_factor_failures (user_id, created_at);
-- the purge
create index second_factor_failures_created_at_idx on app.second_factor_failures (created_at);

/** Privileges */

-- Private tables: no API role reads or writes them; the app.* functions below do.
revoke all on app.credentials, app.recovery_codes, app.second_factor_failures
  from public, anon, authenticated, service_role;

/** Functions: credentials, sealed secrets and the second factor's lock */

-- Whether a stored two-factor secret is sealed the way the API seals it: `v1.<IV>.<ciphertext and tag>`,
-- AES-256-GCM under TOTP_ENCRYPTION_KEY, base64url. The key never reaches the database, so a copy of it
-- (a backup, a replica, a leaked dump) holds no secret in clear; the database refuses to keep one unsealed.
create function app.is_sealed_secret(p_value text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return coalesce(p_value ~ '^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43,}$', false);
end;
$$;
comment on function app.is_sealed_secret(text) is 'Internal: whether a two-factor secret is sealed (v1.<iv>.<ciphertext>).';

-- When the account's second factor is locked until: ten wrong codes within 15 minutes lock it until the
-- oldest of those ten is 15 minutes old. Null when it is not locked.
create function app.second_factor_locked_until(p_user_id bigint, p_now timestamptz default now())
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select f.created_at + interval '15 minutes'
  from app.second_factor_failures f
  where f.user_id = p_user_id and f.created_at > p_now - interval '15 minutes'
  order by f.created_at desc
  offset 9
  limit 1
$$;
comment on function app.second_factor_locked_until(bigint, timestamptz) is
  'Internal: the end of the account''s second-factor lock (10 wrong codes in 15 minutes), or null.';

-- Seconds until browser p_device may offer a code for the account again, or null when it may now: the
-- owner's own browser (one that has signed in as the account, app.user_devices) is never locked out.
create function app.second_factor_wait(p_user_id bigint, p_device text, p_now timestamptz default now())
returns int
language plpgsql
stable
set search_path = ''
as $$
declare
  v_until timestamptz := app.second_factor_locked_until(p_user_id, p_now);
begin
  if v_until is null or (p_device is not null and exists (
    select 1 from app.user_devices d where d.user_id = p_user_id and d.device_id = left(p_device, 64)
  )) then
    return null;
  end if;
  return greatest(1, ceil(extract(epoch from v_until - p_now)))::int;
end;
$$;
comment on function app.second_factor_wait(bigint, text, timestamptz) is
  'Internal: seconds a browser waits before offering a code for the account (null: none; the owner''s browser never).';

-- The stored hash, status and second factor for a username (case-insensitive), for the API to check a
-- sign-in from browser p_device: the sealed secret, the recovery codes' salt, and the seconds the second
-- factor stays locked for that browser (null when it is not). Empty result when the username is unknown.
create function app.get_credentials(p_username text, p_device text default null)
returns table (
  user_id bigint, password_hash text, status text, totp_secret text, recovery_code_salt text, second_factor_wait int
)
language sql
stable
security definer
set search_path = ''
as $$
  select u.id, c.password_hash::text, u.status::text, c.totp_secret::text, c.recovery_code_salt::text,
         case when c.totp_secret is not null then app.second_factor_wait(u.id, p_device) end
  from public.users u
  join app.credentials c on c.user_id = u.id
  where lower(u.username) = lower(btrim(p_username))
$$;
comment on function app.get_credentials(text, text) is
  'Password hash, status and second factor (sealed secret, salt, lock) by username (case-insensitive). Caller: API.';

/** Functions: passwords and the second factor */

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

-- Sets the caller's new password hash (computed by the API after it checked the current password). The
-- trigger on app.credentials ends their other sessions, and this one gets a new token (p_token_hash, made by
-- the API; app.renew_session): a copy of the old cookie no longer works. Returns the new session's latest end.
create function app.change_password(p_password_hash text, p_token_hash text)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if p_password_hash is null or length(p_password_hash) = 0 then
    raise exception using errcode = 'BT400', message = 'Password is required';
  end if;
  perform app.check_length(p_password_hash, 'Password', 255);
  update app.credentials set password_hash = p_password_hash, updated_at = now() where user_id = v_user.id;
  return app.renew_session(p_token_hash);
end;
$$;
comment on function app.change_password(text, text) is
  'Sets the caller''s password hash; ends their other sessions and renews this one''s token. Caller: API.';

-- Spends the second factor of a sign-in in the sign-in's own transaction: the TOTP time step the API
-- verified (refused unless newer than the last one used, so a code never works twice) or the SHA-256 of a
-- recovery code (refused unless unused). Raises BT401 otherwise. Caller: API (no claims: signing in).
create function app.use_second_factor(p_user_id bigint, p_totp_step bigint, p_recovery_code_hash text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_totp_step is not null then
    update app.credentials set totp_last_step = p_totp_step
      where user_id = p_user_id and totp_secret is not null and coalesce(totp_last_step, -1) < p_totp_step;
    if not found then
      raise exception using errcode = 'BT401', message = 'This code was already used: wait for the next one';
    end if;
  else
    update app.recovery_codes set used_at = now()
      where user_id = p_user_id and code_hash = p_recovery_code_hash and used_at is null;
    if not found then
      raise exception using errcode = 'BT401', message = 'Invalid code';
    end if;
  end if;
end;
$$;
comment on function app.use_second_factor(bigint, bigint, text) is
  'Spends a TOTP time step (no replay) or a recovery code (once) of a sign-in. Caller: API.';

-- Internal: turns on a second factor — the sealed secret, the time step of the code that proved it (none can
-- be used again), new recovery codes (HMACs under the new salt p_salt) replacing any old ones, and a clean
-- slate of wrong codes. The new totp_enrolled_at ends the user's other sessions (trigger).
create function app.install_totp(
  p_user_id bigint, p_secret text, p_step bigint, p_recovery_code_hashes text[], p_salt text
)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if not app.is_sealed_secret(p_secret) then
    raise exception using errcode = 'BT400', message = 'Invalid two-factor secret';
  end if;
  if coalesce(cardinality(p_recovery_code_hashes), 0) <> 10 then
    raise exception using errcode = 'BT400', message = 'Ten recovery codes are needed';
  end if;
  if p_salt is null or p_salt !~ '^[0-9a-f]{32,64}$' then
    raise exception using errcode = 'BT400', message = 'Invalid recovery code salt';
  end if;
  update app.credentials
    set totp_secret = p_secret, totp_pending_secret = null, totp_last_step = p_step, totp_enrolled_at = now(),
        recovery_code_salt = p_salt
    where user_id = p_user_id;
  delete from app.recovery_codes where user_id = p_user_id;
  insert into app.recovery_codes (user_id, code_hash) select p_user_id, h from unnest(p_recovery_code_hashes) h;
  delete from app.second_factor_failures where user_id = p_user_id;
end;
$$;
comment on function app.install_totp(bigint, text, bigint, text[], text) is
  'Internal: set the sealed TOTP secret, its last used step and ten new salted recovery codes.';

-- Records a wrong code offered for the account (the API checks an authenticator's code itself; a recovery
-- code the database refused). The tenth within 15 minutes locks the second factor and writes the audit row
-- `user.second_factor_locked` (no admin acted) with the number of wrong codes, the end of the lock and the
-- address the last one came from; the owner sees the lock on their Security screen. Caller: API.
create function app.record_wrong_code(p_user_id bigint, p_ip text, p_device text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_wrong int;
begin
  -- one account's wrong codes one at a time, so the tenth is counted once
  perform pg_advisory_xact_lock(hashtextextended('second-factor:' || p_user_id, 0));
  delete from app.second_factor_failures where created_at < now() - interval '1 day';
  insert into app.second_factor_failures (user_id, ip, device) values (p_user_id, left(p_ip, 64), left(p_device, 64));
  select count(*) into v_wrong from app.second_factor_failures
    where user_id = p_user_id and created_at > now() - interval '15 minutes';
  if v_wrong = 10 then
    perform app.audit(null, 'user.second_factor_locked', 'user', p_user_id, null, jsonb_build_object(
      'wrong_codes', v_wrong, 'locked_until', app.second_factor_locked_until(p_user_id), 'ip', left(p_ip, 64)));
  end if;
end;
$$;
comment on function app.record_wrong_code(bigint, text, text) is
  'Records a wrong second-factor code; the tenth in 15 minutes locks it (audited). Caller: API.';

-- A secret kept in clear from before sealing existed, sealed now: p_sealed replaces p_plain only if the
-- account still holds that very secret in clear. The factor is the same, so no session ends. Returns whether
-- it was replaced. Callers: the API at the secret's next use, and `npm run admin:create` (service_role).
create function app.seal_totp_secret(p_user_id bigint, p_plain text, p_sealed text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not app.is_sealed_secret(p_sealed) then
    raise exception using errcode = 'BT400', message = 'Invalid two-factor secret';
  end if;
  update app.credentials set totp_secret = p_sealed
    where user_id = p_user_id and totp_secret = p_plain and not app.is_sealed_secret(p_plain);
  return found;
end;
$$;
comment on function app.seal_totp_secret(bigint, text, text) is
  'Replaces a two-factor secret kept in clear with its sealed form (same factor). Caller: API, admin:create.';

-- The two-factor secrets still kept in clear (from before sealing), for `npm run admin:create` to seal.
-- Caller: service_role (the operator's script).
create function app.plain_totp_secrets()
returns table (user_id bigint, totp_secret text)
language sql
stable
security definer
set search_path = ''
as $$
  select c.user_id, c.totp_secret::text from app.credentials c
  where c.totp_secret is not null and not app.is_sealed_secret(c.totp_secret)
$$;
comment on function app.plain_totp_secrets() is 'Two-factor secrets still kept in clear. Caller: admin:create (service_role).';

-- The caller's two-factor state as the API answers it: whether it is on, whether the caller may set it up
-- (admins), whether it is required of them (p_required: the API's ADMIN_MFA), the recovery codes left, and
-- until when ten wrong codes have locked it (null when they have not).
create function app.totp_status(p_required boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  return (
    select jsonb_build_object(
      'enabled', c.totp_secret is not null,
      'available', v_user.role = 'admin',
      'required', v_user.role = 'admin' and coalesce(p_required, false),
      'recovery_codes_left', (select count(*) from app.recovery_codes r where r.user_id = v_user.id and r.used_at is null),
      'locked_until', app.second_factor_locked_until(v_user.id))
    from app.credentials c where c.user_id = v_user.id);
end;
$$;
comment on function app.totp_status(boolean) is 'The caller''s two-factor state. Caller: API.';

-- Starts setting up two-factor sign-in for the calling admin: keeps p_secret (made and sealed by the API, once
-- it checked the admin's proof) as the one being set up until a code from it confirms it. Returns the username
-- (the authenticator's label).
create function app.begin_totp_enrolment(p_secret text)
returns text
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
  if not app.is_sealed_secret(p_secret) then
    raise exception using errcode = 'BT400', message = 'Invalid two-factor secret';
  end if;
  update app.credentials set totp_pending_secret = p_secret where user_id = v_user.id;
  return v_user.username;
end;
$$;
comment on function app.begin_totp_enrolment(text) is 'Keeps a TOTP secret being set up by the calling admin. Caller: API.';

-- The secret the calling admin is setting up (for the API to check the confirming code against); 409 when
-- none is, 403 for anyone but an admin.
create function app.pending_totp_secret()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_secret text;
begin
  if v_user.role <> 'admin' then
    raise exception using errcode = 'BT403', message = 'Two-factor sign-in is for administrators';
  end if;
  select c.totp_pending_secret into v_secret from app.credentials c where c.user_id = v_user.id;
  if v_secret is null then
    raise exception using errcode = 'BT409', message = 'Start setting up two-factor sign-in first';
  end if;
  return v_secret;
end;
$$;
comment on function app.pending_totp_secret() is 'The TOTP secret the calling admin is setting up. Caller: API.';

-- Confirms the calling admin's set-up: p_secret must still be the one being set up (another tab may have
-- started anew: 409), p_step is the time step of the code the API verified against it, p_salt the key of the
-- new recovery codes' hashes. The API has checked the admin's password (and current second factor) first.
-- The new secret ends every other session, and this one gets a new token (p_token_hash; app.renew_session).
-- Returns the new session's latest end.
create function app.confirm_totp_enrolment(
  p_secret text, p_step bigint, p_recovery_code_hashes text[], p_salt text, p_token_hash text
)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if v_user.role <> 'admin' or not exists (
    select 1 from app.credentials c where c.user_id = v_user.id and c.totp_pending_secret = p_secret
  ) then
    raise exception using errcode = 'BT409', message = 'Start setting up two-factor sign-in first';
  end if;
  perform app.install_totp(v_user.id, p_secret, p_step, p_recovery_code_hashes, p_salt);
  return app.renew_session(p_token_hash);
end;
$$;
comment on function app.confirm_totp_enrolment(text, bigint, text[], text, text) is
  'Turns on the calling admin''s second factor once a code confirmed it; renews this session''s token. Caller: API.';

-- The operator's script sets up an admin's second factor without a browser (ADMIN_TOTP_SECRET, or a new
-- secret it prints), sealed with TOTP_ENCRYPTION_KEY, with recovery codes hashed under p_salt. Needs no
-- claims. Caller: service_role.
create function app.set_admin_totp(p_username text, p_secret text, p_recovery_code_hashes text[], p_salt text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users;
begin
  select * into v_user from public.users where lower(username) = lower(btrim(p_username));
  if not found or v_user.role <> 'admin' then
    raise exception using errcode = 'BT404', message = 'Admin not found';
  end if;
  perform app.install_totp(v_user.id, p_secret, null, p_recovery_code_hashes, p_salt);
end;
$$;
comment on function app.set_admin_totp(text, text, text[], text) is
  'Sets an admin''s sealed TOTP secret and salted recovery codes (operator script; no claims). Caller: service_role.';

/** Function privileges */

-- Functions get EXECUTE for PUBLIC by default: take it away, then grant per function.
revoke execute on function
  app.get_credentials(text, text),
  app.begin_password_check(text, text),
  app.begin_factor_check(text, text),
  app.finish_password_check(text, text, boolean),
  app.change_password(text, text),
  app.use_second_factor(bigint, bigint, text),
  app.is_sealed_secret(text),
  app.install_totp(bigint, text, bigint, text[], text),
  app.second_factor_locked_until(bigint, timestamptz),
  app.second_factor_wait(bigint, text, timestamptz),
  app.record_wrong_code(bigint, text, text),
  app.seal_totp_secret(bigint, text, text),
  app.plain_totp_secrets(),
  app.totp_status(boolean),
  app.begin_totp_enrolment(text),
  app.pending_totp_secret(),
  app.confirm_totp_enrolment(text, bigint, text[], text, text),
  app.set_admin_totp(text, text, text[], text)
  from public, anon, authenticated, service_role;
-- Business functions: the API only, as service_role (never anon/authenticated: nothing reachable through
-- PostgREST may move money or read credentials).
grant execute on function
  app.get_credentials(text, text),
  app.begin_password_check(text, text),
  app.begin_factor_check(text, text),
  app.finish_password_check(text, text, boolean),
  app.change_password(text, text),
  app.use_second_factor(bigint, bigint, text),
  app.record_wrong_code(bigint, text, text),
  app.seal_totp_secret(bigint, text, text),
  app.plain_totp_secrets(),
  app.totp_status(boolean),
  app.begin_totp_enrolment(text),
  app.pending_totp_secret(),
  app.confirm_totp_enrolment(text, bigint, text[], text, text),
  app.set_admin_totp(text, text, text[], text)
  to service_role;
