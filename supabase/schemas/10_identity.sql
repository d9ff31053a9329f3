-- Identity: users, credentials, sessions, login attempts and the audit log; the caller helpers every policy
-- and business function relies on; registration, sessions and rate limits.
--
-- How a caller is identified: the API runs each request in one transaction. app.authenticate resolves the
-- session cookie's hash and sets `request.jwt.claims` transaction-local to
-- {"role":"authenticated","user_id":…,"app_role":"user|admin"}. Reads run as `authenticated` (RLS decides);
-- business functions run as `service_role` and re-check the caller against public.users (role and status
-- come from the table, never only from the claim).

/** Tables */

-- Players and administrators, without the password (kept in app.credentials). Usernames and emails are
-- unique case-insensitively (unique indexes on lower()). Usernames are at least 3 letters, digits, dots,
-- hyphens and underscores (users_username_charset): no zero-width or bidi characters that make a look-alike
-- of another user's name. The charset regex is unbounded on purpose: PostgreSQL evaluates a bounded one
-- ({3,255}) many times slower, on every update of a user row; the length bounds are users_username_check
-- and the column type.
-- wallet_balance is written by the posting function only (app.post_transfers). Only a correction's reversal
-- may take it below zero: the posting function then sets below_zero_since (and clears it once the balance is
-- back at zero or above), and users_balance_below_zero refuses a negative balance without it, whatever the
-- code path.
-- Balances change all the time and the status and balance columns stay out of every index, so an update
-- is HOT (touches no index) when its page has room. Settlement gives every winner a new row version in one
-- transaction, and the dead versions cannot be pruned before it ends: fillfactor 45 leaves room on each page
-- for every row's new version beside the old one.
create table public.users (
  id bigint generated always as identity primary key,
  username varchar(255) not null check (length(username) >= 3 and username = btrim(username)),
  name varchar(255) not null check (length(btrim(name)) >= 2),
  email varchar(255) check (email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  phone varchar(50),
  wallet_balance bigint not null default 0,
  referral_code varchar(50) not null check (length(referral_code) >= 4),
  referred_by bigint references public.users (id) on delete set null,
  role varchar(50) not null default 'user' check (role in ('admin', 'user')),
  status varchar(50) not null default 'active' check (status in ('active', 'suspended', 'banned')),
  created_at timestamptz not null default now(),
  below_zero_since timestamptz,
  -- shared its phone number with an earlier account when one account per phone number became the rule:
  -- kept, outside the uniqueness, and shown to admins as a linked account
  phone_kept_duplicate boolean not null default false,
  constraint users_referral_code_key unique (referral_code),
  constraint users_not_self_referred check (referred_by is distinct from id),
  constraint users_username_charset check (username ~ '^[A-Za-z0-9_.-]+$'),
  constraint users_balance_below_zero check (wallet_balance >= 0 or below_zero_since is not null)
) with (fillfactor = 45);
comment on table public.users is
  'Players and administrators. wallet_balance always equals the sum of the user''s completed ledger rows.';
comment on column public.users.below_zero_since is
  'When a correction took the balance below zero (null unless it is below zero); set by app.post_transfers.';
create unique index users_username_lower_key on public.users (lower(username));
create unique index users_email_lower_key on public.users (lower(email));
-- foreign key (referrals shown on the admin user screen): only referred users have one
create index users_referred_by_idx on public.users (referred_by) where referred_by is not null;
-- the Suspended and Banned tabs of the admin users list and their counts: the few users who are not active
create index users_not_active_idx on public.users (status, id) where status <> 'active';
-- the Below zero tab of the admin users list: the few players a correction left below zero (the balance
-- itself stays out of every index, so a credit remains a HOT update)
create index users_below_zero_idx on public.users (id) where below_zero_since is not null;

-- The digits that identify a phone number: the last ten (an Indian mobile number without +91 or 0), or all
-- of them when there are fewer; null without at least six. '+91 98765-43210' and '09876543210' agree.
create function app.phone_key(p_phone text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when length(d) >= 6 then right(d, 10) end
  from (select regexp_replace(coalesce(p_phone, ''), '[^0-9]', '', 'g') as d) digits
$$;
comment on function app.phone_key(text) is 'Internal: the comparable digits of a phone number (last ten), or null.';
-- the accounts with a phone number, kept duplicates included (registration, linked accounts, exclusions)
create index users_phone_key_idx on public.users (app.phone_key(phone)) where phone is not null;
-- one account per phone number, whatever the code path
create unique index users_one_phone_key on public.users (app.phone_key(phone))
  where phone is not null and not phone_kept_duplicate;

-- 'Search users...' of the admin users list: partial matches of username, name or email. The expression is
-- the one app.admin_users filters on, letter for letter (an index serves only its own expression). The
-- operator class is named in the schema pg_trgm lives in.
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

-- Sessions: the SHA-256 (hex) of the cookie token, never the token itself, which never leaves the database
-- either: the user sees and ends a session by its public id. A session ends at expires_at unless used: the
-- idle timeout after its last use, never later than 30 days after sign-in (app.session_expiry).
create table app.sessions (
  token_hash varchar(128) primary key,
  user_id bigint not null references public.users (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  id bigint generated always as identity,
  -- the browser it was opened from and the address it was last used from
  user_agent varchar(512),
  ip varchar(64),
  -- when the current play session began: at sign-in, or again after 30 minutes without a request (the
  -- reality checks count from here; app.authenticate moves it)
  play_started_at timestamptz not null default now(),
  constraint sessions_id_key unique (id)
);
comment on table app.sessions is
  'Signed-in sessions: hash of the cookie token (never shown), a public id, browser, last address, end (expires_at).';
comment on column app.sessions.expires_at is
  'When the session ends unless used: the idle timeout after last_seen_at, never later than 30 days after created_at.';
comment on column app.sessions.play_started_at is
  'When the current play session began: at sign-in, or at the first request after 30 minutes without one.';
-- foreign key; also "delete all sessions of a banned user"
create index sessions_user_id_idx on app.sessions (user_id);
-- purge of expired sessions
create index sessions_expires_at_idx on app.sessions (expires_at);

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

-- Every admin write appends here: who, what, which row, before and after. Readable by admins only.
-- admin_id is null only for rows written without an acting admin: the payment webhook's
-- 'deposit.paid_after_rejection', the stale-deposit job's 'deposit.expired' and the second-factor lock's
-- 'user.second_factor_locked'.
create table public.audit_log (
  id bigint generated always as identity primary key,
  admin_id bigint references public.users (id) on delete set null,
  action varchar(100) not null,
  target_type varchar(50) not null,
  target_id bigint,
  before jsonb,
  after jsonb,
  created_at timestamptz not null default now()
);
comment on table public.audit_log is 'Append-only record of administrator actions.';
-- foreign key; "what did this admin do"
create index audit_log_admin_id_idx on public.audit_log (admin_id);
-- "what happened to this row"
create index audit_log_target_idx on public.audit_log (target_type, target_id);

/** Types */

create type app.request_caller as (user_id bigint, role text, status text);
comment on type app.request_caller is 'The caller of a request, as app.authenticate resolved it.';

/** Privileges */

-- Hosted Supabase grants ALL on new public tables to anon/authenticated by default privileges: start from
-- nothing and grant reads only. No role gets insert/update/delete: writes go through app.* functions.
revoke all on public.users, public.audit_log from anon, authenticated, service_role;
grant select on public.users, public.audit_log to authenticated, service_role;
revoke all on app.credentials, app.sessions, app.login_attempts, app.user_devices, app.recovery_codes,
  app.second_factor_failures
  from public, anon, authenticated, service_role;

/** Functions: caller helpers (used by RLS policies and by every business function) */

-- The caller's user id from the transaction-local claims, or null. Not SECURITY DEFINER: it only reads a
-- setting. Policies call it as `(select app.current_user_id())` so it runs once per query (initplan).
-- Pooled connections read an unset custom setting back as '' rather than NULL, hence nullif.
-- Functions on the request path are PL/pgSQL, not SQL: PostgreSQL 15 cannot inline a SQL function whose
-- search_path is pinned, and then plans its body again in every statement that calls it; PL/pgSQL keeps
-- its plans for the session.
create function app.current_user_id()
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  return nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'user_id', '')::bigint;
end;
$$;
comment on function app.current_user_id() is
  'Caller''s user id from request.jwt.claims (null when absent). For RLS; callable by authenticated and service_role.';

-- True when the claims carry app_role = admin. Used by read policies only: app.authenticate sets app_role
-- from the session's user, and only for an active admin. Every admin *function* re-checks role and status
-- in public.users.
create function app.is_admin()
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'app_role' = 'admin', false);
end;
$$;
comment on function app.is_admin() is
  'Whether the claims say app_role = admin. For RLS reads only; admin functions re-check public.users.';

-- The calling user's row, checked: 401 without claims or unknown user, 403 when banned, and when
-- p_require_active also 403 when suspended (suspended users may look but not bet, deposit or withdraw).
-- Internal helper for SECURITY DEFINER functions (runs with their owner's rights); executable by no API role.
create function app.caller(p_require_active boolean default true)
returns public.users
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user public.users;
  v_id bigint := app.current_user_id();
begin
  if v_id is null then
    raise exception using errcode = 'BT401', message = 'Authentication required';
  end if;
  select * into v_user from public.users where id = v_id;
  if not found then
    raise exception using errcode = 'BT401', message = 'Authentication required';
  end if;
  if v_user.status = 'banned' then
    raise exception using errcode = 'BT403', message = 'Your account is banned';
  end if;
  if p_require_active and v_user.status = 'suspended' then
    raise exception using errcode = 'BT403', message = 'Your account is suspended';
  end if;
  return v_user;
end;
$$;
comment on function app.caller(boolean) is
  'Internal: the calling user, 401/403 when absent, banned or (if required) not active.';

-- The calling admin's row: an active user with role admin in public.users (the claim alone is not enough).
create function app.require_admin()
returns public.users
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user public.users;
begin
  v_user := app.caller(false);
  if v_user.role <> 'admin' then
    raise exception using errcode = 'BT403', message = 'Admin access required';
  end if;
  if v_user.status <> 'active' then
    raise exception using errcode = 'BT403', message = 'Your account is suspended';
  end if;
  return v_user;
end;
$$;
comment on function app.require_admin() is 'Internal: the calling admin (active, role admin in public.users) or 403.';

-- Raises BT400 '{Field} must be at most N characters' (a friendlier error than varchar overflow).
create function app.check_length(p_value text, p_field text, p_max int)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_value is not null and length(p_value) > p_max then
    raise exception using errcode = 'BT400', message = format('%s must be at most %s characters', p_field, p_max);
  end if;
end;
$$;
comment on function app.check_length(text, text, int) is 'Internal: 400 when a text is longer than its column allows.';

-- Raises BT400 when a username has characters other than A-Z, a-z, 0-9, '_', '.', '-' (the same rule as the
-- CHECK users_username_charset, with a user-visible message).
create function app.check_username(p_username text)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_username !~ '^[A-Za-z0-9_.-]+$' then
    raise exception using errcode = 'BT400',
      message = 'Username may contain only letters, digits, dots, hyphens and underscores';
  end if;
end;
$$;
comment on function app.check_username(text) is 'Internal: 400 unless a username uses only A-Z a-z 0-9 _ . -';

-- Appends one row to public.audit_log. Every admin write calls it in its own transaction.
create function app.audit(
  p_admin_id bigint, p_action text, p_target_type text, p_target_id bigint, p_before jsonb, p_after jsonb
)
returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into public.audit_log (admin_id, action, target_type, target_id, before, after)
  values (p_admin_id, p_action, p_target_type, p_target_id, p_before, p_after);
end;
$$;
comment on function app.audit(bigint, text, text, bigint, jsonb, jsonb) is 'Internal: append an audit_log row.';

/** Policies */

-- Reads only: there are no insert/update/delete policies (and no such grants).
-- One select policy (own row, or everything for an admin) rather than two permissive ones (lint 0006).
-- The OR cannot drive an index by itself: queries for one user's rows add `where user_id = …` (the API's
-- do, since an admin's "my bets" must not list everyone's), and that filter uses the user_id indexes.
alter table public.users enable row level security;
create policy "Users can read their own row; admins read all"
  on public.users for select to authenticated
  using (id = (select app.current_user_id()) or (select app.is_admin()));

alter table public.audit_log enable row level security;
create policy "Admins can read the audit log"
  on public.audit_log for select to authenticated
  using ((select app.is_admin()));

/** Functions: answer shapes */

-- A user as the API answers it: the row (without the password, which lives in app.credentials, and without
-- the phone_kept_duplicate marker) plus what the player may spend now (available_balance) and what waits for
-- approval (pending_withdrawals, see the wallet). Built from the row given (a business function's fresh
-- result included), not re-read.
create function app.user_json(p_user public.users)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select (to_jsonb(p_user) - 'below_zero_since' - 'phone_kept_duplicate') || jsonb_build_object(
      'available_balance', p_user.wallet_balance - w.pending,
      'pending_withdrawals', w.pending)
    from (select app.pending_withdrawals(p_user.id) as pending) w
  );
end;
$$;
comment on function app.user_json(public.users) is
  'The API''s user answer: the row plus available_balance and pending_withdrawals. Callable by authenticated, service_role.';

/** Functions: registration */

-- A fresh referral code: 8 characters from an unambiguous alphabet, retried on the rare collision.
create function app.new_referral_code()
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_alphabet constant text := 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  v_code text;
begin
  loop
    select string_agg(substr(v_alphabet, 1 + floor(random() * length(v_alphabet))::int, 1), '')
      into v_code
      from generate_series(1, 8);
    exit when not exists (select 1 from public.users where referral_code = v_code);
  end loop;
  return v_code;
end;
$$;
comment on function app.new_referral_code() is 'Internal: a unique 8-character referral code.';

-- Raises BT400 'This username is not available' for the names players would take for staff: admin,
-- administrator, root, support, system, operator, staff, moderator and anything starting with admin, in
-- any case. Only registration asks: the operator's app.create_admin may use them.
create function app.check_reserved_username(p_username text)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if lower(p_username) in ('admin', 'administrator', 'root', 'support', 'system', 'operator', 'staff', 'moderator')
     or lower(p_username) like 'admin%' then
    raise exception using errcode = 'BT400', message = 'This username is not available';
  end if;
end;
$$;
comment on function app.check_reserved_username(text) is 'Internal: 400 for a username reserved for staff.';

-- 409 'This phone number is already in use' when an account other than p_user_id has p_phone (compared by
-- app.phone_key). Internal: registration and profile changes.
create function app.refuse_held_phone(p_phone text, p_user_id bigint)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if app.phone_key(p_phone) is not null and exists (
    select 1 from public.users u
    where app.phone_key(u.phone) = app.phone_key(p_phone) and u.phone is not null and u.id is distinct from p_user_id
  ) then
    raise exception using errcode = 'BT409', message = 'This phone number is already in use';
  end if;
end;
$$;
comment on function app.refuse_held_phone(text, bigint) is 'Internal: 409 when another account has this phone number.';

-- Registers a player (user/active) with an optional referral code. A phone number belongs to one account
-- (compared by app.phone_key): one a self-excluded player has opens no account while the exclusion runs (403,
-- worded so it tells a stranger nothing about anyone's exclusion), one any other account has is a 409 'This
-- phone number is already in use' (two registrations with one number at once: the unique index lets one in).
-- Names reserved for staff are refused (app.check_reserved_username).
create function app.register_user(
  p_username text, p_password_hash text, p_name text, p_email text, p_phone text, p_referral_code text
)
returns public.users
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_username text := btrim(p_username);
  v_name text := btrim(p_name);
  v_email text := lower(btrim(p_email));
  v_phone text := nullif(btrim(p_phone), '');
  v_code text := nullif(upper(btrim(p_referral_code)), '');
  v_referrer bigint;
  v_user public.users;
  v_constraint text;
begin
  if v_username is null or length(v_username) < 3 then
    raise exception using errcode = 'BT400', message = 'Username must be at least 3 characters';
  end if;
  perform app.check_length(v_username, 'Username', 255);
  perform app.check_username(v_username);
  perform app.check_reserved_username(v_username);
  if p_password_hash is null or length(p_password_hash) = 0 then
    raise exception using errcode = 'BT400', message = 'Password is required';
  end if;
  perform app.check_length(p_password_hash, 'Password', 255);
  if v_name is null or length(v_name) < 2 then
    raise exception using errcode = 'BT400', message = 'Name must be at least 2 characters';
  end if;
  perform app.check_length(v_name, 'Name', 255);
  if v_email is null or v_email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception using errcode = 'BT400', message = 'Please enter a valid email';
  end if;
  perform app.check_length(v_email, 'Email', 255);
  perform app.check_length(v_phone, 'Phone', 50);
  perform app.check_length(v_code, 'Referral code', 50);

  if exists (select 1 from public.users where lower(username) = lower(v_username)) then
    raise exception using errcode = 'BT409', message = 'Username already exists';
  end if;
  if exists (select 1 from public.users where lower(email) = v_email) then
    raise exception using errcode = 'BT409', message = 'Email already registered';
  end if;
  if app.phone_key(v_phone) is not null and exists (
    select 1 from public.users u
    where app.phone_key(u.phone) = app.phone_key(v_phone) and u.phone is not null and app.is_self_excluded(u.id)
  ) then
    raise exception using errcode = 'BT403', message = 'We can''t open an account with these details';
  end if;
  perform app.refuse_held_phone(v_phone, null);
  if v_code is not null then
    select id into v_referrer from public.users where referral_code = v_code;
    if v_referrer is null then
      raise exception using errcode = 'BT400', message = 'Invalid referral code';
    end if;
  end if;

  begin
    insert into public.users (username, name, email, phone, referral_code, referred_by, role, status)
    values (v_username, v_name, v_email, v_phone, app.new_referral_code(), v_referrer, 'user', 'active')
    returning * into v_user;
  exception when unique_violation then
    -- a concurrent registration won the race
    get stacked diagnostics v_constraint = constraint_name;
    if v_constraint = 'users_email_lower_key' then
      raise exception using errcode = 'BT409', message = 'Email already registered';
    end if;
    if v_constraint = 'users_one_phone_key' then
      perform app.refuse_held_phone(v_phone, null);
    end if;
    raise exception using errcode = 'BT409', message = 'Username already exists';
  end;
  insert into app.credentials (user_id, password_hash) values (v_user.id, p_password_hash);
  if v_referrer is not null then
    insert into app.referrals (user_id, referrer_id) values (v_user.id, v_referrer);
  end if;
  return v_user;
end;
$$;
comment on function app.register_user(text, text, text, text, text, text) is
  'Registers a player (user/active) with an optional referral code. Caller: API (service_role).';

-- PATCH /api/user: the caller changes their name and phone number (p_changes: {"name"?, "phone"?}; a key left
-- out keeps its value, an empty or null phone removes it). A phone number another account has is a 409 'This
-- phone number is already in use' (two changes to one number at once: the unique index lets one in). A new
-- number is the caller's alone (no longer a kept duplicate). Answers the user.
create function app.update_profile(p_changes jsonb)
returns public.users
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_name text := btrim(p_changes ->> 'name');
  v_phone text := nullif(btrim(p_changes ->> 'phone'), '');
begin
  if jsonb_typeof(p_changes) is distinct from 'object' then
    raise exception using errcode = 'BT400', message = 'Profile changes must be a JSON object';
  end if;
  if p_changes ? 'name' and (v_name is null or length(v_name) < 2) then
    raise exception using errcode = 'BT400', message = 'Name must be at least 2 characters';
  end if;
  perform app.check_length(v_name, 'Name', 255);
  perform app.check_length(v_phone, 'Phone', 50);
  select * into v_user from public.users where id = v_user.id for update;
  if p_changes ? 'phone' then
    perform app.refuse_held_phone(v_phone, v_user.id);
  end if;
  begin
    update public.users
      set name = case when p_changes ? 'name' then v_name else name end,
          phone = case when p_changes ? 'phone' then v_phone else phone end,
          phone_kept_duplicate = phone_kept_duplicate
            and not (p_changes ? 'phone' and app.phone_key(v_phone) is distinct from app.phone_key(phone))
      where id = v_user.id
      returning * into v_user;
  exception when unique_violation then
    -- another account took the number meanwhile
    perform app.refuse_held_phone(v_phone, v_user.id);
    raise;
  end;
  return v_user;
end;
$$;
comment on function app.update_profile(jsonb) is
  'Changes the caller''s name and phone number (a number another account has is a 409). Caller: API.';

-- Creates an administrator, or sets the password of an existing one (and makes it active again): the
-- operator's script, `npm run admin:create`. A player's username is refused with a 409 naming the flag
-- unless p_promote: promoting a player is a decision, never the side effect of a name that happens to be
-- taken. Promotion (a change of role) and the new password end every session of the account (triggers).
-- Same username rules as app.register_user, except that the reserved names are allowed here.
-- Needs no claims; audited with admin_id = the admin. Caller: service_role.
create function app.create_admin(
  p_username text, p_password_hash text, p_name text, p_email text, p_promote boolean default false
)
returns public.users
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_username text := btrim(p_username);
  v_name text := coalesce(nullif(btrim(p_name), ''), btrim(p_username));
  v_email text := nullif(lower(btrim(p_email)), '');
  v_user public.users;
  v_before public.users;
begin
  if v_username is null or length(v_username) < 3 then
    raise exception using errcode = 'BT400', message = 'Username must be at least 3 characters';
  end if;
  perform app.check_length(v_username, 'Username', 255);
  perform app.check_username(v_username);
  if p_password_hash is null or length(p_password_hash) = 0 then
    raise exception using errcode = 'BT400', message = 'Password is required';
  end if;
  perform app.check_length(p_password_hash, 'Password', 255);
  perform app.check_length(v_name, 'Name', 255);
  if v_email is not null and v_email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception using errcode = 'BT400', message = 'Please enter a valid email';
  end if;
  perform app.check_length(v_email, 'Email', 255);

  select * into v_before from public.users where lower(username) = lower(v_username) for update;
  if found then
    if v_before.role <> 'admin' and not coalesce(p_promote, false) then
      raise exception using errcode = 'BT409',
        message = format('''%s'' is a player account; pass --promote to make it an administrator', v_before.username);
    end if;
    update public.users set role = 'admin', status = 'active' where id = v_before.id returning * into v_user;
    insert into app.credentials (user_id, password_hash) values (v_user.id, p_password_hash)
      on conflict (user_id) do update set password_hash = excluded.password_hash, updated_at = now();
    perform app.audit(v_user.id, case when v_before.role = 'admin' then 'user.reset_admin' else 'user.promote_admin' end,
      'user', v_user.id, to_jsonb(v_before), to_jsonb(v_user));
  else
    if v_email is not null and exists (select 1 from public.users where lower(email) = v_email) then
      raise exception using errcode = 'BT409', message = 'Email already registered';
    end if;
    insert into public.users (username, name, email, referral_code, role, status)
    values (v_username, v_name, v_email, app.new_referral_code(), 'admin', 'active')
    returning * into v_user;
    insert into app.credentials (user_id, password_hash) values (v_user.id, p_password_hash);
    perform app.audit(v_user.id, 'user.create_admin', 'user', v_user.id, null, to_jsonb(v_user));
  end if;
  return v_user;
end;
$$;
comment on function app.create_admin(text, text, text, text, boolean) is
  'Creates an administrator or resets one; a player only with p_promote (operator script; no claims). Caller: service_role.';

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

/** Functions: sessions */

-- The request's session id from the claims app.authenticate set (null outside a signed-in request).
create function app.current_session_id()
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  return nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'session_id', '')::bigint;
end;
$$;
comment on function app.current_session_id() is 'Internal: the id of the session of the current request, or null.';

-- The latest moment a session begun at p_created_at can last, however often it is used: 30 days.
create function app.session_ends_by(p_created_at timestamptz)
returns timestamptz
language plpgsql
immutable
set search_path = ''
as $$
begin
  return p_created_at + interval '30 days';
end;
$$;
comment on function app.session_ends_by(timestamptz) is 'Internal: the absolute end of a session (30 days after sign-in).';

-- When a session used at p_now ends unless used again: 30 minutes later for an admin (whose session can
-- move money for others), 7 days later for a player, and never after app.session_ends_by.
create function app.session_expiry(p_role text, p_created_at timestamptz, p_now timestamptz)
returns timestamptz
language plpgsql
immutable
set search_path = ''
as $$
begin
  return least(
    app.session_ends_by(p_created_at),
    p_now + case when p_role = 'admin' then interval '30 minutes' else interval '7 days' end);
end;
$$;
comment on function app.session_expiry(text, timestamptz, timestamptz) is
  'Internal: idle timeout (admin 30 minutes, player 7 days) capped by the 30-day lifetime.';

-- Ends every session of a user but the current request's: the account changed, so whoever else holds one
-- must sign in again under the new rules.
create function app.end_other_sessions(p_user_id bigint)
returns void
language plpgsql
set search_path = ''
as $$
begin
  delete from app.sessions
    where user_id = p_user_id and id is distinct from app.current_session_id();
end;
$$;
comment on function app.end_other_sessions(bigint) is 'Internal: delete a user''s sessions except the current one.';

create function app.end_sessions_on_user_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform app.end_other_sessions(new.id);
  return null;
end;
$$;
comment on function app.end_sessions_on_user_change() is 'Trigger: a change of role or status ends the user''s other sessions.';

create trigger users_end_sessions
  after update of role, status on public.users
  for each row when (old.role is distinct from new.role or old.status is distinct from new.status)
  execute function app.end_sessions_on_user_change();

create function app.end_sessions_on_credentials_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform app.end_other_sessions(new.user_id);
  return null;
end;
$$;
comment on function app.end_sessions_on_credentials_change() is
  'Trigger: a new password or second factor ends the user''s other sessions.';

-- A new second factor is a new totp_enrolled_at: sealing a secret kept from before in clear changes the
-- column but not the factor, and ends nothing.
create trigger credentials_end_sessions
  after update of password_hash, totp_enrolled_at on app.credentials
  for each row when (old.password_hash is distinct from new.password_hash
                     or old.totp_enrolled_at is distinct from new.totp_enrolled_at)
  execute function app.end_sessions_on_credentials_change();

-- Every session that ends, however it ends (sign-out, sign-out everywhere, a ban or any change of status or
-- role, a new password or second factor, the purge of expired ones), is announced on `sessions_ended` with
-- the ids of the sessions, so the server processes close the live streams they opened at once (they hear it
-- on the LISTEN connection they hold anyway). One notification per 500 sessions keeps each well under
-- PostgreSQL's 8000-byte limit; it is sent when the deleting transaction commits.
create function app.announce_ended_sessions()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('sessions_ended', part.ids::text)
  from (select jsonb_agg(e.id) as ids
        from (select id, (row_number() over (order by id) - 1) / 500 as chunk from ended) e
        group by e.chunk) part;
  return null;
end;
$$;
comment on function app.announce_ended_sessions() is
  'Trigger: announces the ids of ended (deleted) sessions on sessions_ended, 500 per notification.';

create trigger sessions_announce_end
  after delete on app.sessions
  referencing old table as ended
  for each statement
  execute function app.announce_ended_sessions();

-- Of the sessions p_ids (those with a live stream open in a server process), the ones that have ended:
-- deleted, or past their end. A server process asks when its LISTEN was lost (announcements may have gone
-- unheard) and every minute (a session may simply run out of time). Caller: the server processes (the
-- database owner); no API role.
create function app.ended_sessions(p_ids bigint[])
returns setof bigint
language sql
stable
set search_path = ''
as $$
  select i.id from unnest(p_ids) i(id)
  where not exists (select 1 from app.sessions s where s.id = i.id and s.expires_at > now())
$$;
comment on function app.ended_sessions(bigint[]) is
  'Of the given session ids, those that have ended (deleted or expired). Caller: the server processes (owner).';

-- Stores a new session (hash of the cookie token) with the browser and address it was opened from, and
-- remembers the browser's device cookie id as one that has signed in as this user (a referral between two
-- accounts of that browser is then never paid: app.note_referral_links). Refuses banned users
-- (403). Returns the latest moment the session can last (the cookie's expiry). Purges expired sessions
-- and devices whose cookie has expired (sign-ins are rare enough for this to be cheap).
create function app.create_session(
  p_user_id bigint, p_token_hash text, p_user_agent text default null, p_ip text default null, p_device text default null
)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users;
  v_session app.sessions;
begin
  if p_token_hash is null or length(p_token_hash) < 32 or length(p_token_hash) > 128 then
    raise exception using errcode = 'BT400', message = 'Invalid session token';
  end if;
  select * into v_user from public.users where id = p_user_id;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  if v_user.status = 'banned' then
    raise exception using errcode = 'BT403', message = 'Your account is banned';
  end if;
  delete from app.sessions where expires_at <= now();
  insert into app.sessions (token_hash, user_id, expires_at, user_agent, ip)
  values (p_token_hash, v_user.id, app.session_expiry(v_user.role, now(), now()), left(p_user_agent, 512), left(p_ip, 64))
  returning * into v_session;
  if p_device is not null then
    delete from app.user_devices where last_sign_in_at < now() - interval '400 days';
    insert into app.user_devices (user_id, device_id) values (v_user.id, left(p_device, 64))
      on conflict (user_id, device_id) do update set last_sign_in_at = now();
    perform app.note_referral_links(v_user.id, left(p_device, 64));
  end if;
  return app.session_ends_by(v_session.created_at);
end;
$$;
comment on function app.create_session(bigint, text, text, text, text) is
  'Creates a session for a non-banned user, remembers its device; returns its latest end. Caller: API.';

-- Resolves the session — unexpired, its user not banned — and sets the transaction-local claims that RLS
-- policies and business functions read (with the session's id, so a change of the account can spare the
-- session that made it). p_access is what the route needs:
--   'user'  — any signed-in user, else 401 'Not authenticated';
--   'admin' — an active admin according to public.users, else 401 / 403 'Admin access required'; with
--             p_require_mfa (ADMIN_MFA=required) also one with a second factor, else 403.
-- The claims say app_role 'admin' only for an active admin. The session is touched at most once a minute
-- or when the address changes (no write per request): last_seen_at, the address, and its end moves to
-- the idle timeout from now (app.session_expiry); after 30 minutes without a request a new play session
-- begins. Returns the caller (for the API's request log).
create function app.authenticate(
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
comment on function app.authenticate(text, text, text, boolean) is
  'Resolves a session token hash, checks the access a route needs and sets request.jwt.claims. Caller: API.';

-- Deletes one session (logout). Unknown hashes are ignored.
create function app.delete_session(p_token_hash text)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from app.sessions where token_hash = p_token_hash
$$;
comment on function app.delete_session(text) is 'Deletes a session (logout). Caller: API.';

-- The caller's sessions that are still open, most recently used first, as the API answers them: the
-- public id, browser, address, times, and which one is this request's. Never the token's hash.
create function app.account_sessions()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', s.id, 'user_agent', s.user_agent, 'ip', s.ip, 'created_at', s.created_at,
             'last_seen_at', s.last_seen_at, 'expires_at', s.expires_at,
             'current', s.id = app.current_session_id())
           order by s.last_seen_at desc, s.id desc)
    from app.sessions s
    where s.user_id = v_user.id and s.expires_at > now()), '[]'::jsonb);
end;
$$;
comment on function app.account_sessions() is 'The caller''s open sessions (no token hashes). Caller: API.';

-- Ends one of the caller's sessions by its public id; 404 'Session not found' for anyone else's or an
-- unknown id. Returns whether it was the request's own session (the API then clears its cookie).
create function app.end_session(p_id bigint)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  delete from app.sessions where id = p_id and user_id = v_user.id;
  if not found then
    raise exception using errcode = 'BT404', message = 'Session not found';
  end if;
  return p_id = app.current_session_id();
end;
$$;
comment on function app.end_session(bigint) is 'Ends one of the caller''s sessions by id. Caller: API.';

-- Ends every session of the caller, this one included ("Sign out everywhere").
create function app.end_all_sessions()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  delete from app.sessions where user_id = v_user.id;
end;
$$;
comment on function app.end_all_sessions() is 'Ends every session of the caller. Caller: API.';

-- Internal: gives the request's session a new token (p_token_hash, the hash of a token the API made) after a
-- change of the account's password or second factor. The old session ends like every other one of the user
-- (a copy of its cookie stops working with them, and a live stream opened with it closes); the new one keeps
-- the browser, the address and the play session, and lasts as a fresh sign-in. Returns its latest end (the
-- cookie's expiry).
create function app.renew_session(p_token_hash text)
returns timestamptz
language plpgsql
set search_path = ''
as $$
declare
  v_old app.sessions;
  v_new app.sessions;
begin
  if p_token_hash is null or length(p_token_hash) < 32 or length(p_token_hash) > 128 then
    raise exception using errcode = 'BT400', message = 'Invalid session token';
  end if;
  delete from app.sessions where id = app.current_session_id() returning * into v_old;
  if not found then
    raise exception using errcode = 'BT401', message = 'Not authenticated';
  end if;
  insert into app.sessions (token_hash, user_id, expires_at, user_agent, ip, play_started_at)
  select p_token_hash, u.id, app.session_expiry(u.role, now(), now()), v_old.user_agent, v_old.ip, v_old.play_started_at
    from public.users u where u.id = v_old.user_id
  returning * into v_new;
  return app.session_ends_by(v_new.created_at);
end;
$$;
comment on function app.renew_session(text) is
  'Internal: replaces the request''s session with one of a new token (same browser and play session); its latest end.';

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
--     after the referred player's first completed deposit).
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
  app.current_user_id(),
  app.is_admin(),
  app.caller(boolean),
  app.require_admin(),
  app.check_length(text, text, int),
  app.check_username(text),
  app.phone_key(text),
  app.audit(bigint, text, text, bigint, jsonb, jsonb),
  app.user_json(public.users),
  app.new_referral_code(),
  app.check_reserved_username(text),
  app.refuse_held_phone(text, bigint),
  app.register_user(text, text, text, text, text, text),
  app.update_profile(jsonb),
  app.create_admin(text, text, text, text, boolean),
  app.get_credentials(text, text),
  app.current_session_id(),
  app.session_ends_by(timestamptz),
  app.session_expiry(text, timestamptz, timestamptz),
  app.end_other_sessions(bigint),
  app.end_sessions_on_user_change(),
  app.end_sessions_on_credentials_change(),
  app.announce_ended_sessions(),
  app.ended_sessions(bigint[]),
  app.create_session(bigint, text, text, text, text),
  app.authenticate(text, text, text, boolean),
  app.delete_session(text),
  app.account_sessions(),
  app.end_session(bigint),
  app.end_all_sessions(),
  app.renew_session(text),
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
  app.set_admin_totp(text, text, text[], text),
  app.address_limit_wait(text, text, boolean, int, interval, timestamptz),
  app.refuse_attempt(text, int),
  app.username_limit_wait(text, text, text, int, interval, timestamptz),
  app.check_attempt(text, text, text, timestamptz, text),
  app.conclude_attempt(text, text, text, boolean, timestamptz, text)
  from public, anon, authenticated, service_role;
-- RLS helpers and the user answer: evaluated as the querying role (RLS applies to what they read).
grant execute on function app.current_user_id(), app.is_admin(), app.user_json(public.users)
  to authenticated, service_role;
-- Business functions: the API only, as service_role (never anon/authenticated: nothing reachable through
-- PostgREST may move money or read credentials).
grant execute on function
  app.register_user(text, text, text, text, text, text),
  app.update_profile(jsonb),
  app.create_admin(text, text, text, text, boolean),
  app.get_credentials(text, text),
  app.create_session(bigint, text, text, text, text),
  app.authenticate(text, text, text, boolean),
  app.delete_session(text),
  app.account_sessions(),
  app.end_session(bigint),
  app.end_all_sessions(),
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
  app.set_admin_totp(text, text, text[], text),
  app.check_attempt(text, text, text, timestamptz, text),
  app.conclude_attempt(text, text, text, boolean, timestamptz, text)
  to service_role;
