-- Second factors at rest, and a lock that shows.
--
--   * Two-factor secrets are sealed by the API (AES-256-GCM under TOTP_ENCRYPTION_KEY, bound to the user's
--     id) before they reach the database, which refuses to keep a new one in clear (app.is_sealed_secret). A
--     secret kept in clear from before is sealed at its next use (the sign-in or set-up proof that reads it,
--     app.seal_totp_secret) and by every run of `npm run admin:create` (app.plain_totp_secrets): the database
--     cannot seal anything itself, since the key never reaches it. Neither ends a session: a new second factor
--     is now a new totp_enrolled_at, not any change of the column.
--   * A set-up in progress keeps its secret in clear: it starts again (the pending secret is cleared).
--   * Recovery codes are HMAC-SHA256 under a salt of the user's own (app.credentials.recovery_code_salt).
--     Codes from before have no salt: they stay SHA-256 and keep working until the admin sets the second
--     factor up again.
--   * Ten wrong codes within 15 minutes lock an account's second factor for every browser that has not
--     signed in as it (app.second_factor_failures, app.second_factor_wait); the lock is audited
--     ('user.second_factor_locked') and shown on the owner's Security screen (app.totp_status).

/** Tables */

-- its condition names totp_secret, whose type changes; it comes back on totp_enrolled_at (Triggers, below)
drop trigger credentials_end_sessions on app.credentials;

alter table app.credentials
  alter column totp_secret type varchar(200),
  alter column totp_pending_secret type varchar(200),
  add column totp_enrolled_at timestamptz,
  add column recovery_code_salt varchar(64);
comment on column app.credentials.totp_secret is
  'TOTP secret (RFC 6238, 6 digits, 30 s) sealed with AES-256-GCM under TOTP_ENCRYPTION_KEY by the API; a base32 one is from before and is sealed at its next use; null: no second factor.';
comment on column app.credentials.totp_enrolled_at is 'When the current second factor was turned on.';
comment on column app.credentials.recovery_code_salt is
  'Per-user HMAC-SHA256 key (hex) of the recovery codes'' hashes; null: codes from before, kept as SHA-256.';

update app.credentials set totp_pending_secret = null where totp_pending_secret is not null;
update app.credentials set totp_enrolled_at = updated_at where totp_secret is not null;

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
revoke all on app.second_factor_failures from public, anon, authenticated, service_role;

/** Functions */

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

drop function app.get_credentials(text);

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

drop function app.begin_factor_check(text, text);

-- Before an admin sets up a second factor (starting or confirming it): the proof a stolen session lacks.
-- Records the attempt like a sign-in of their username (app.begin_attempt), and returns its id, the caller,
-- the stored password hash and the current second factor as get_credentials does for browser p_device (none:
-- then the password alone proves it). 403 for anyone but an admin.
create function app.begin_factor_check(p_ip text, p_device text default null)
returns table (
  attempt_id bigint, user_id bigint, password_hash text, totp_secret text, recovery_code_salt text,
  second_factor_wait int
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
  attempt_id := app.begin_attempt('login', v_user.username, p_ip, p_device => p_device);
  select c.user_id, c.password_hash, c.totp_secret, c.recovery_code_salt, c.second_factor_wait
    into user_id, password_hash, totp_secret, recovery_code_salt, second_factor_wait
    from app.get_credentials(v_user.username, p_device) c;
  return next;
end;
$$;
comment on function app.begin_factor_check(text, text) is
  'Rate-limited start of the calling admin''s proof for a second-factor set-up: attempt, hash, current factor. Caller: API.';

drop function app.install_totp(bigint, text, bigint, text[]);

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
create or replace function app.totp_status(p_required boolean)
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
create or replace function app.begin_totp_enrolment(p_secret text)
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

drop function app.confirm_totp_enrolment(text, bigint, text[], text);

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

drop function app.set_admin_totp(text, text, text[]);

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

/** Triggers */

-- A new second factor is a new totp_enrolled_at: sealing a secret kept from before in clear changes the
-- column but not the factor, and ends nothing.
create trigger credentials_end_sessions
  after update of password_hash, totp_enrolled_at on app.credentials
  for each row when (old.password_hash is distinct from new.password_hash
                     or old.totp_enrolled_at is distinct from new.totp_enrolled_at)
  execute function app.end_sessions_on_credentials_change();

/** Function privileges */

revoke execute on function
  app.is_sealed_secret(text),
  app.second_factor_locked_until(bigint, timestamptz),
  app.second_factor_wait(bigint, text, timestamptz),
  app.get_credentials(text, text),
  app.begin_factor_check(text, text),
  app.install_totp(bigint, text, bigint, text[], text),
  app.record_wrong_code(bigint, text, text),
  app.seal_totp_secret(bigint, text, text),
  app.plain_totp_secrets(),
  app.confirm_totp_enrolment(text, bigint, text[], text, text),
  app.set_admin_totp(text, text, text[], text)
  from public, anon, authenticated, service_role;
grant execute on function
  app.get_credentials(text, text),
  app.begin_factor_check(text, text),
  app.record_wrong_code(bigint, text, text),
  app.seal_totp_secret(bigint, text, text),
  app.plain_totp_secrets(),
  app.confirm_totp_enrolment(text, bigint, text[], text, text),
  app.set_admin_totp(text, text, text[], text)
  to service_role;
