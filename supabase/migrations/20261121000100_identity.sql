-- Identity: users, credentials, sessions, login attempts, settings, idempotency keys; the caller helpers
-- every policy and business function relies on; registration, sessions and rate limiting.
--
-- How a caller is identified: the API runs each request in one transaction and sets
-- `request.jwt.claims` transaction-local to {"role":"authenticated","user_id":…,"app_role":"user|admin"}.
-- Reads run as `authenticated` (RLS decides); business functions run as `service_role` and re-check the
-- caller against `public.users` (role and status come from the table, never only from the claim).
--
-- Error convention for every function in `app`: `raise exception using errcode = 'BT4xx'`, where the last
-- three digits are the HTTP status the API answers (BT400 validation, BT401 no caller, BT403 forbidden,
-- BT404 not found, BT409 conflict, BT429 rate limited). Messages are user-visible: spec texts where the spec
-- has one.
--
-- Advisor note (INFO 0005 unused_index): on a freshly migrated database every non-unique index has
-- idx_scan = 0, so the advisor lists them as "unused". Each index below exists for a foreign key, an RLS
-- filter or a hot lookup named in its comment; they are used as soon as traffic arrives.

/** Tables */

-- Spec §3.1 minus the password (kept in app.credentials). Usernames and emails are unique
-- case-insensitively (unique indexes on lower()). Usernames are 3-255 letters, digits, dots, hyphens and
-- underscores only (users_username_charset): no zero-width or bidi characters that make a look-alike of
-- another user's name.
create table public.users (
  id bigint generated always as identity primary key,
  username varchar(255) not null check (length(username) >= 3 and username = btrim(username)),
  name varchar(255) not null check (length(btrim(name)) >= 2),
  email varchar(255) check (email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  phone varchar(50),
  wallet_balance bigint not null default 0 check (wallet_balance >= 0),
  referral_code varchar(50) not null check (length(referral_code) >= 4),
  referred_by bigint references public.users (id) on delete set null,
  role varchar(50) not null default 'user' check (role in ('admin', 'user')),
  status varchar(50) not null default 'active' check (status in ('active', 'suspended', 'banned')),
  created_at timestamptz not null default now(),
  constraint users_referral_code_key unique (referral_code),
  constraint users_not_self_referred check (referred_by is distinct from id),
  constraint users_username_charset check (username ~ '^[A-Za-z0-9_.-]{3,255}$')
);
comment on table public.users is
  'Players and administrators (spec §3.1). wallet_balance always equals the sum of the user''s completed ledger rows.';
create unique index users_username_lower_key on public.users (lower(username));
create unique index users_email_lower_key on public.users (lower(email));
-- foreign key (referrals shown on the admin user screen)
create index users_referred_by_idx on public.users (referred_by);

-- Password hashes (scrypt/argon2id computed by the API, never in SQL). Private: not in an exposed schema.
create table app.credentials (
  user_id bigint primary key references public.users (id) on delete cascade,
  password_hash varchar(255) not null check (length(password_hash) > 0),
  updated_at timestamptz not null default now()
);
comment on table app.credentials is 'Password hashes, one per user. Read only through app.get_credentials.';

-- Sessions: the SHA-256 (hex) of the cookie token, never the token itself.
create table app.sessions (
  token_hash varchar(128) primary key,
  user_id bigint not null references public.users (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now()
);
comment on table app.sessions is 'Signed-in sessions: hash of the cookie token, owner and expiry.';
-- foreign key; also "delete all sessions of a banned user"
create index sessions_user_id_idx on app.sessions (user_id);
-- purge of expired sessions
create index sessions_expires_at_idx on app.sessions (expires_at);

-- Login and registration attempts for rate limiting (kept in Postgres so any API instance sees them).
-- app.begin_attempt writes a row as a failure (it counts while in flight); app.finish_attempt marks it a
-- success.
create table app.login_attempts (
  id bigint generated always as identity primary key,
  action varchar(20) not null check (action in ('login', 'register')),
  username varchar(255),
  ip varchar(64),
  success boolean not null,
  created_at timestamptz not null default now()
);
comment on table app.login_attempts is 'Recent login/registration attempts; rows older than a day are purged.';
create index login_attempts_username_idx on app.login_attempts (action, lower(username), created_at);
create index login_attempts_ip_idx on app.login_attempts (action, ip, created_at);
create index login_attempts_created_at_idx on app.login_attempts (created_at);

-- Operator-tunable settings (jsonb values).
create table app.settings (
  key varchar(100) primary key,
  value jsonb not null,
  description text
);
comment on table app.settings is 'Business settings, e.g. referral_bonus_amount.';
insert into app.settings (key, value, description) values
  ('referral_bonus_amount', '100', 'Rupees credited to the referrer when a referred user''s first deposit completes.');

-- Idempotency keys for POST /api/bets and /api/wallet/withdraw (brandur/rocket-rides-atomic): the key is
-- unique per user, the request's hash is stored (reuse with other parameters is a 409) and the response is
-- replayed on retry.
create table app.idempotency_keys (
  user_id bigint not null references public.users (id) on delete cascade,
  key varchar(255) not null,
  request_hash varchar(255) not null,
  response_status int not null,
  response_body jsonb,
  created_at timestamptz not null default now(),
  constraint idempotency_keys_pkey primary key (user_id, key)
);
comment on table app.idempotency_keys is 'Saved responses of idempotent requests, per user and key (24 hours).';
create index idempotency_keys_created_at_idx on app.idempotency_keys (created_at);

-- Every admin write appends here: who, what, which row, before and after. Readable by admins only.
-- admin_id is null only for rows written without an acting admin: the payment webhook's
-- 'deposit_paid_after_rejection' (app.complete_deposit).
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

/** Privileges */

-- Hosted Supabase grants ALL on new public tables to anon/authenticated by default privileges: start from
-- nothing and grant reads only. No role gets insert/update/delete: writes go through app.* functions.
revoke all on public.users, public.audit_log from anon, authenticated, service_role;
grant select on public.users, public.audit_log to authenticated, service_role;
revoke all on app.credentials, app.sessions, app.login_attempts, app.settings, app.idempotency_keys
  from public, anon, authenticated, service_role;

/** Caller helpers (used by RLS policies and by every business function) */

-- The caller's user id from the transaction-local claims, or null. Not SECURITY DEFINER: it only reads a
-- setting. Policies call it as `(select app.current_user_id())` so it runs once per query (initplan).
-- Pooled connections read an unset custom setting back as '' rather than NULL, hence nullif.
create function app.current_user_id()
returns bigint
language sql
stable
set search_path = ''
as $$
  select nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'user_id', '')::bigint
$$;
comment on function app.current_user_id() is
  'Caller''s user id from request.jwt.claims (null when absent). For RLS; callable by authenticated and service_role.';

-- True when the claims carry app_role = admin. Used by read policies only: the API sets app_role from the
-- session row it just resolved. Every admin *function* re-checks role and status in public.users.
create function app.is_admin()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'app_role' = 'admin', false)
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

-- Appends one row to public.audit_log.
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

/** Policies */

alter table public.users enable row level security;

-- One select policy (own row, or everything for an admin) rather than two permissive ones (lint 0006).
-- The OR cannot drive an index by itself: queries for one user's rows add `where user_id = …` (the API's
-- do, since an admin's "my bets" must not list everyone's), and that filter uses the user_id indexes.
create policy "Users can read their own row; admins read all"
  on public.users for select to authenticated
  using (id = (select app.current_user_id()) or (select app.is_admin()));

alter table public.audit_log enable row level security;

create policy "Admins can read the audit log"
  on public.audit_log for select to authenticated
  using ((select app.is_admin()));

/** Functions: registration and credentials */

-- Registers a player (role user, status active, always: role/status never come from the client).
-- p_password_hash is computed by the API. Optional p_referral_code must be an existing user's code.
-- The username may contain only letters, digits, dots, hyphens and underscores (app.check_username).
-- Errors: 400 validation / 'Invalid referral code'; 409 'Username already exists' / 'Email already registered'.
-- Caller: the API (service_role), no claims needed.
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
    raise exception using errcode = 'BT409', message = 'Username already exists';
  end;
  insert into app.credentials (user_id, password_hash) values (v_user.id, p_password_hash);
  return v_user;
end;
$$;
comment on function app.register_user(text, text, text, text, text, text) is
  'Registers a player (user/active) with an optional referral code. Caller: API (service_role).';

-- Creates an administrator, or promotes an existing username to admin/active and sets its password hash.
-- Same username rules as app.register_user (at least 3 characters, app.check_username).
-- For the operator's script (`npm run admin:create`); needs no claims. Audited with admin_id = the admin.
create function app.create_admin(p_username text, p_password_hash text, p_name text, p_email text)
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
    update public.users set role = 'admin', status = 'active' where id = v_before.id returning * into v_user;
    insert into app.credentials (user_id, password_hash) values (v_user.id, p_password_hash)
      on conflict (user_id) do update set password_hash = excluded.password_hash, updated_at = now();
    perform app.audit(v_user.id, 'user.promote_admin', 'user', v_user.id, to_jsonb(v_before), to_jsonb(v_user));
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
comment on function app.create_admin(text, text, text, text) is
  'Creates or promotes an administrator (operator script; no claims). Caller: service_role.';

-- The stored hash and status for a username (case-insensitive), for the API to verify a password.
-- Empty result when the username is unknown.
create function app.get_credentials(p_username text)
returns table (user_id bigint, password_hash text, status text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.id, c.password_hash::text, u.status::text
  from public.users u
  join app.credentials c on c.user_id = u.id
  where lower(u.username) = lower(btrim(p_username))
$$;
comment on function app.get_credentials(text) is 'Password hash and status by username (case-insensitive). Caller: API.';

/** Functions: sessions */

-- Stores a new session (hash of the cookie token). Refuses banned users (403) and past expiries (400).
-- Purges expired sessions of every user (logins are rare enough for this to be cheap).
create function app.create_session(p_user_id bigint, p_token_hash text, p_expires_at timestamptz)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_status text;
begin
  if p_token_hash is null or length(p_token_hash) < 32 or length(p_token_hash) > 128 then
    raise exception using errcode = 'BT400', message = 'Invalid session token';
  end if;
  if p_expires_at is null or p_expires_at <= now() then
    raise exception using errcode = 'BT400', message = 'Session expiry must be in the future';
  end if;
  select status into v_status from public.users where id = p_user_id;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  if v_status = 'banned' then
    raise exception using errcode = 'BT403', message = 'Your account is banned';
  end if;
  delete from app.sessions where expires_at <= now();
  insert into app.sessions (token_hash, user_id, expires_at) values (p_token_hash, p_user_id, p_expires_at);
end;
$$;
comment on function app.create_session(bigint, text, timestamptz) is 'Creates a session for a non-banned user. Caller: API.';

-- The session's user, role and status when the session exists, is unexpired and its user is not banned;
-- empty otherwise. An expired row is deleted. last_seen_at is touched at most once a minute (no write per
-- request).
create function app.resolve_session(p_token_hash text)
returns table (user_id bigint, role text, status text)
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from app.sessions s where s.token_hash = p_token_hash and s.expires_at <= now();
  update app.sessions s set last_seen_at = now()
    where s.token_hash = p_token_hash and s.last_seen_at < now() - interval '1 minute';
  return query
    select u.id, u.role::text, u.status::text
    from app.sessions s
    join public.users u on u.id = s.user_id
    where s.token_hash = p_token_hash and s.expires_at > now() and u.status <> 'banned';
end;
$$;
comment on function app.resolve_session(text) is 'Resolves a session token hash to its (non-banned) user. Caller: API.';

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

/** Functions: rate limiting */

-- The one place of the rate-limit rule. Call it in its own (committed) transaction BEFORE the password
-- work: checking and recording are one step, so parallel requests cannot all pass the check (a check in
-- one transaction and a record written in another after the slow password hashing let 60 parallel wrong
-- logins through). It serializes attempts per action+ip and per action+username (transaction-level
-- advisory locks, taken in ascending key order so two attempts never wait on each other crosswise),
-- counts the attempts of the last 15 minutes and raises BT429 when
--   'login':    >= 10 failed for the username (case-insensitive) or >= 30 failed from the ip;
--   'register': >= 10 from the ip, successful or not (mass sign-ups would farm referral bonuses);
-- otherwise it records this attempt as a failure (so it counts while in flight) and returns its id, which
-- app.finish_attempt(id, true) turns into a success. Rows older than a day are purged.
create function app.begin_attempt(p_action text, p_username text, p_ip text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_since timestamptz := now() - interval '15 minutes';
  v_username text := left(btrim(p_username), 255);
  v_ip text := left(p_ip, 64);
  v_key bigint;
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

  if (p_action = 'login' and v_username is not null and (
        select count(*) from app.login_attempts a
        where a.action = 'login' and lower(a.username) = lower(v_username)
          and a.created_at > v_since and not a.success) >= 10)
     or (p_action = 'login' and v_ip is not null and (
        select count(*) from app.login_attempts a
        where a.action = 'login' and a.ip = v_ip and a.created_at > v_since and not a.success) >= 30)
     or (p_action = 'register' and v_ip is not null and (
        select count(*) from app.login_attempts a
        where a.action = 'register' and a.ip = v_ip and a.created_at > v_since) >= 10)
  then
    raise exception using errcode = 'BT429', message = 'Too many attempts. Please try again in a few minutes.';
  end if;

  delete from app.login_attempts where created_at < now() - interval '1 day';
  insert into app.login_attempts (action, username, ip, success)
  values (p_action, v_username, v_ip, false)
  returning id into v_id;
  return v_id;
end;
$$;
comment on function app.begin_attempt(text, text, text) is
  'Rate limit: raises BT429 or records a (failed until finished) login/register attempt and returns its id. Caller: API.';

-- Finishes an attempt of app.begin_attempt. p_success = true marks it a success (it stops counting) and,
-- for a login, clears that username's failed attempts; false leaves it counted as a failure.
create function app.finish_attempt(p_id bigint, p_success boolean)
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
      where action = 'login' and lower(username) = lower(v_attempt.username) and not success;
  end if;
end;
$$;
comment on function app.finish_attempt(bigint, boolean) is
  'Marks an attempt of app.begin_attempt a success (a login clears the username''s failures). Caller: API.';

/** Functions: idempotency */

-- Looks up a saved response for (caller, key). Empty = a new key: the API then runs the business function
-- and app.idempotency_save, in the same transaction. Takes a transaction-level advisory lock on
-- (user, key) first, so two concurrent requests with one key run one after the other and the second one
-- replays the first one's response. A key reused with a different request hash is a 409.
create function app.idempotency_lookup(p_key text, p_request_hash text)
returns table (response_status int, response_body jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_row app.idempotency_keys;
begin
  if p_key is null or length(p_key) = 0 then
    raise exception using errcode = 'BT400', message = 'Idempotency key is required';
  end if;
  perform app.check_length(p_key, 'Idempotency key', 255);
  perform pg_advisory_xact_lock(hashtextextended(v_user.id::text || ':' || p_key, 0));
  delete from app.idempotency_keys k
    where k.user_id = v_user.id and k.key = p_key and k.created_at < now() - interval '24 hours';
  select * into v_row from app.idempotency_keys k where k.user_id = v_user.id and k.key = p_key;
  if found then
    if v_row.request_hash <> p_request_hash then
      raise exception using errcode = 'BT409', message = 'Idempotency key reused with a different request';
    end if;
    response_status := v_row.response_status;
    response_body := v_row.response_body;
    return next;
  end if;
end;
$$;
comment on function app.idempotency_lookup(text, text) is
  'Saved response for the caller''s idempotency key (empty when new); serializes per key. Caller: API.';

-- Saves the response for (caller, key). Call in the same transaction as app.idempotency_lookup.
create function app.idempotency_save(
  p_key text, p_request_hash text, p_response_status int, p_response_body jsonb
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if p_key is null or length(p_key) = 0 then
    raise exception using errcode = 'BT400', message = 'Idempotency key is required';
  end if;
  perform app.check_length(p_key, 'Idempotency key', 255);
  perform app.check_length(p_request_hash, 'Request hash', 255);
  insert into app.idempotency_keys (user_id, key, request_hash, response_status, response_body)
  values (v_user.id, p_key, p_request_hash, p_response_status, p_response_body)
  on conflict (user_id, key) do update
    set request_hash = excluded.request_hash, response_status = excluded.response_status,
        response_body = excluded.response_body, created_at = now();
  -- opportunistic purge of expired keys
  delete from app.idempotency_keys where created_at < now() - interval '24 hours';
end;
$$;
comment on function app.idempotency_save(text, text, int, jsonb) is 'Saves the response for an idempotency key. Caller: API.';

/** Function privileges */

-- Functions get EXECUTE for PUBLIC by default; take it away everywhere in `app` (only this file's functions
-- exist yet), then grant per function. Later migrations revoke and grant their own functions by name.
revoke execute on all functions in schema app from public, anon, authenticated, service_role;
-- RLS helpers: evaluated inside policies as the querying role.
grant execute on function app.current_user_id(), app.is_admin() to authenticated, service_role;
-- Business functions: the API only, as service_role (never anon/authenticated: nothing reachable through
-- PostgREST may move money or read credentials).
grant execute on function
  app.register_user(text, text, text, text, text, text),
  app.create_admin(text, text, text, text),
  app.get_credentials(text),
  app.create_session(bigint, text, timestamptz),
  app.resolve_session(text),
  app.delete_session(text),
  app.begin_attempt(text, text, text),
  app.finish_attempt(bigint, boolean),
  app.idempotency_lookup(text, text),
  app.idempotency_save(text, text, int, jsonb)
  to service_role;
