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
  wallet_balance bigint not null default 0 check (wallet_balance >= 0),
  referral_code varchar(50) not null check (length(referral_code) >= 4),
  referred_by bigint references public.users (id) on delete set null,
  role varchar(50) not null default 'user' check (role in ('admin', 'user')),
  status varchar(50) not null default 'active' check (status in ('active', 'suspended', 'banned')),
  created_at timestamptz not null default now(),
  constraint users_referral_code_key unique (referral_code),
  constraint users_not_self_referred check (referred_by is distinct from id),
  constraint users_username_charset check (username ~ '^[A-Za-z0-9_.-]+$')
) with (fillfactor = 45);
comment on table public.users is
  'Players and administrators. wallet_balance always equals the sum of the user''s completed ledger rows.';
create unique index users_username_lower_key on public.users (lower(username));
create unique index users_email_lower_key on public.users (lower(email));
-- foreign key (referrals shown on the admin user screen): only referred users have one
create index users_referred_by_idx on public.users (referred_by) where referred_by is not null;
-- the Suspended and Banned tabs of the admin users list and their counts: the few users who are not active
create index users_not_active_idx on public.users (status, id) where status <> 'active';

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
-- a self-excluded player's phone number opens no new account (app.register_user)
create index users_phone_key_idx on public.users (app.phone_key(phone)) where phone is not null;

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

-- Login and registration attempts for rate limiting (kept in Postgres so every API process sees them).
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

-- Every admin write appends here: who, what, which row, before and after. Readable by admins only.
-- admin_id is null only for rows written without an acting admin: the payment webhook's
-- 'deposit.paid_after_rejection' and the stale-deposit job's 'deposit.expired'.
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
revoke all on app.credentials, app.sessions, app.login_attempts from public, anon, authenticated, service_role;

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

-- A user as the API answers it: the row (without the password, which lives in app.credentials) plus what
-- the player may spend now (available_balance) and what waits for approval (pending_withdrawals, see the
-- wallet). Built from the row given (a business function's fresh result included), not re-read.
create function app.user_json(p_user public.users)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select to_jsonb(p_user) || jsonb_build_object(
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

-- Registers a player (user/active) with an optional referral code. A phone number that a self-excluded
-- player has on their account opens no account while the exclusion runs (403, worded so it tells a stranger
-- nothing about anyone's exclusion).
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
  if app.phone_key(v_phone) is not null and exists (
    select 1 from public.users u
    where app.phone_key(u.phone) = app.phone_key(v_phone) and u.phone is not null and app.is_self_excluded(u.id)
  ) then
    raise exception using errcode = 'BT403', message = 'We can''t open an account with these details';
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
  if v_referrer is not null then
    insert into app.referrals (user_id, referrer_id) values (v_user.id, v_referrer);
  end if;
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

-- Resolves the session (unexpired, its user not banned) and sets the transaction-local claims that RLS
-- policies and business functions read: the first statement of every signed-in request. p_access is what
-- the route needs:
--   'user'  — any signed-in user, else 401 'Not authenticated';
--   'admin' — an active admin according to public.users, else 401 / 403 'Admin access required'.
-- The claims say app_role 'admin' only for an active admin. last_seen_at is touched at most once a minute
-- (no write per request); expired rows are purged when sessions are created (app.create_session). Returns
-- the caller (for the API's request log). The claims survive the function's own search_path setting:
-- set_config(…, true) inside a function lasts until the end of the transaction. One lookup, one optional
-- update: this runs on every signed-in request.
create function app.authenticate(p_token_hash text, p_access text)
returns app.request_caller
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_caller app.request_caller;
  v_last_seen timestamptz;
begin
  if p_access is null or p_access not in ('user', 'admin') then
    raise exception using errcode = 'BT400', message = 'Unknown access level';
  end if;
  select s.user_id, u.role, u.status, s.last_seen_at
    into v_caller.user_id, v_caller.role, v_caller.status, v_last_seen
    from app.sessions s
    join public.users u on u.id = s.user_id
    where s.token_hash = p_token_hash and s.expires_at > now() and u.status <> 'banned';
  if v_caller.user_id is null then
    raise exception using errcode = 'BT401', message = 'Not authenticated';
  end if;
  if v_last_seen < now() - interval '1 minute' then
    update app.sessions set last_seen_at = now() where token_hash = p_token_hash;
  end if;
  if p_access = 'admin' and (v_caller.role <> 'admin' or v_caller.status <> 'active') then
    raise exception using errcode = 'BT403', message = 'Admin access required';
  end if;
  -- app_role admin lets RLS show everything: only while the admin is active.
  perform set_config('request.jwt.claims', json_build_object(
    'role', 'authenticated', 'user_id', v_caller.user_id,
    'app_role', case when v_caller.role = 'admin' and v_caller.status = 'active' then 'admin' else 'user' end
  )::text, true);
  return v_caller;
end;
$$;
comment on function app.authenticate(text, text) is
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

/** Functions: rate limits */

-- Rate limits that cannot be turned against players:
--
--   login, per username AND address together: 10 failures in 15 minutes refuse that pair only, so an
--     attacker's address locks out only itself;
--   login, per address: 30 failures in 15 minutes (any usernames) refuse the address;
--   login, per username across all addresses: from 50 failures in 15 minutes each further attempt waits
--     2, 4, 8, 16, 32, then 60 seconds after the latest failure (a short, growing Retry-After, never a
--     lockout). An address the username signed in from within the last day is exempt: a player's own
--     device is never slowed by someone else's guessing.
--   register, per address: 10 failed (or in-flight) attempts in 15 minutes; successful ones do not count
--     there (sign-ups behind mobile-carrier and office NAT share an address), but at most 100 succeed per
--     address in 24 hours (referral farming is kept in check by that and by the bonus being paid only
--     after the referred player's first completed deposit).
--
-- Every refusal is a BT429 whose DETAIL is the number of seconds after which the same attempt would pass:
-- the API sends it as Retry-After.

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

-- The one place of the rate-limit rules (above). Call it in its own (committed) transaction BEFORE the
-- password work: checking and recording are one step, so parallel requests cannot all pass the check. It
-- serializes attempts per action+ip and per action+username (transaction-level advisory locks, taken in
-- ascending key order so two attempts never wait on each other crosswise), raises BT429 (DETAIL = seconds
-- to wait) when a limit is reached, and otherwise records this attempt as a failure (so it counts while in
-- flight) and returns its id, which app.finish_attempt(id, true) turns into a success. Rows older than a day
-- are purged. p_now is for tests; the API leaves it to now().
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
      where action = 'login' and lower(username) = lower(v_attempt.username)
        and ip is not distinct from v_attempt.ip and not success;
  end if;
end;
$$;
comment on function app.finish_attempt(bigint, boolean) is
  'Marks an attempt of app.begin_attempt a success (a login clears that username''s failures from its address). Caller: API.';

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
  app.register_user(text, text, text, text, text, text),
  app.create_admin(text, text, text, text),
  app.get_credentials(text),
  app.create_session(bigint, text, timestamptz),
  app.authenticate(text, text),
  app.delete_session(text),
  app.address_limit_wait(text, text, boolean, int, interval, timestamptz),
  app.refuse_attempt(text, int),
  app.begin_attempt(text, text, text, timestamptz),
  app.finish_attempt(bigint, boolean)
  from public, anon, authenticated, service_role;
-- RLS helpers and the user answer: evaluated as the querying role (RLS applies to what they read).
grant execute on function app.current_user_id(), app.is_admin(), app.user_json(public.users)
  to authenticated, service_role;
-- Business functions: the API only, as service_role (never anon/authenticated: nothing reachable through
-- PostgREST may move money or read credentials).
grant execute on function
  app.register_user(text, text, text, text, text, text),
  app.create_admin(text, text, text, text),
  app.get_credentials(text),
  app.create_session(bigint, text, timestamptz),
  app.authenticate(text, text),
  app.delete_session(text),
  app.begin_attempt(text, text, text, timestamptz),
  app.finish_attempt(bigint, boolean)
  to service_role;
