-- Identity: users and the audit log; the caller helpers every policy and business function relies on;
-- registration, profiles and administrators. Passwords and the second factor are in 11_credentials.sql,
-- sessions in 12_sessions.sql, the rate limits of sign-in and registration in 13_rate_limits.sql.
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
  app.create_admin(text, text, text, text, boolean)
  from public, anon, authenticated, service_role;
-- RLS helpers and the user answer: evaluated as the querying role (RLS applies to what they read).
grant execute on function app.current_user_id(), app.is_admin(), app.user_json(public.users)
  to authenticated, service_role;
-- Business functions: the API only, as service_role (never anon/authenticated: nothing reachable through
-- PostgREST may move money or read credentials).
grant execute on function
  app.register_user(text, text, text, text, text, text),
  app.update_profile(jsonb),
  app.create_admin(text, text, text, text, boolean)
  to service_role;
