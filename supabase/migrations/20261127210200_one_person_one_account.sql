-- One person, one account: a bank account (account number and IFSC, compared by app.bank_account_key) and a
-- phone number (compared by app.phone_key, its last ten digits) belong to one account. Adding a bank account
-- another account holds is a 409 'This bank account is already in use'; registering with, or changing to, a
-- phone number another account has is a 409 'This phone number is already in use'. Unique indexes make it hold
-- whatever the code path, also for two requests at once.
--
-- Existing duplicates are kept: of the accounts that already share a bank account or a phone number, the
-- earliest row (lowest id) keeps it as before and every later one is marked (bank_accounts.kept_duplicate,
-- users.phone_kept_duplicate), which leaves it outside the unique indexes. Nothing is deleted and nobody
-- loses a bank account they withdraw to; admins see every such pair as linked accounts, and exclusions follow
-- them like any other link. A kept duplicate that changes its phone number takes the new one under the rule.

/** Bank accounts */

alter table public.bank_accounts add column kept_duplicate boolean not null default false;
comment on column public.bank_accounts.kept_duplicate is
  'Shared its bank account with an earlier row when one account per bank account became the rule: kept, outside the uniqueness.';

-- The letters and digits that identify a bank account: the IFSC (upper case) and the account number without
-- spaces, hyphens or leading zeros ('0012-3456-7890' and '1234567890' at one branch are one account).
create function app.bank_account_key(p_account_number text, p_ifsc_code text)
returns text
language sql
immutable
set search_path = ''
as $$
  select upper(btrim(p_ifsc_code)) || ':' || ltrim(regexp_replace(upper(p_account_number), '[^0-9A-Z]', '', 'g'), '0')
$$;
comment on function app.bank_account_key(text, text) is 'Internal: the comparable form of a bank account (IFSC and number).';
update public.bank_accounts b set kept_duplicate = true
  where exists (select 1 from public.bank_accounts e
                where app.bank_account_key(e.account_number, e.ifsc_code) = app.bank_account_key(b.account_number, b.ifsc_code)
                  and e.id < b.id);

-- one account per bank account, whatever the code path
create unique index bank_accounts_one_account_key on public.bank_accounts (app.bank_account_key(account_number, ifsc_code))
  where not kept_duplicate;
-- the accounts holding a bank account, kept duplicates included (adding one, linked accounts, exclusions)
drop index public.bank_accounts_account_idx;
create index bank_accounts_account_idx on public.bank_accounts (app.bank_account_key(account_number, ifsc_code));

/** Phone numbers */

alter table public.users add column phone_kept_duplicate boolean not null default false;

update public.users u set phone_kept_duplicate = true
  where u.phone is not null and app.phone_key(u.phone) is not null
    and exists (select 1 from public.users e
                where e.phone is not null and app.phone_key(e.phone) = app.phone_key(u.phone) and e.id < u.id);

-- one account per phone number, whatever the code path
create unique index users_one_phone_key on public.users (app.phone_key(phone))
  where phone is not null and not phone_kept_duplicate;

/** Functions */

-- A user as the API answers it: the row (without the password, which lives in app.credentials, and without
-- the phone_kept_duplicate marker) plus what the player may spend now (available_balance) and what waits for
-- approval (pending_withdrawals, see the wallet). Built from the row given (a business function's fresh
-- result included), not re-read.
create or replace function app.user_json(p_user public.users)
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

-- A bank account as the API answers it: the row without the kept_duplicate marker (admins see shared bank
-- accounts as linked accounts).
create function app.bank_account_json(p_account public.bank_accounts)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select to_jsonb(p_account) - 'kept_duplicate'
$$;
comment on function app.bank_account_json(public.bank_accounts) is
  'The API''s bank account answer. Callable by authenticated, service_role.';

-- Saves a bank account for the caller (owner = caller; any user_id in the request is ignored by the API).
-- Suspended users may still add accounts; banned users cannot act at all. IFSC is upper-cased. A bank account
-- (compared by app.bank_account_key) belongs to one account: app.refuse_held_bank_account refuses one the
-- caller or another account holds. Two accounts adding the same one at once: the unique index lets one in
-- and the other, once the first has committed, gets the same refusal.
create or replace function app.add_bank_account(
  p_account_holder text, p_account_number text, p_ifsc_code text, p_bank_name text
)
returns public.bank_accounts
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_holder text := btrim(p_account_holder);
  v_number text := btrim(p_account_number);
  v_ifsc text := upper(btrim(p_ifsc_code));
  v_bank text := btrim(p_bank_name);
  v_key text;
  v_account public.bank_accounts;
begin
  if v_holder is null or length(v_holder) < 3 then
    raise exception using errcode = 'BT400', message = 'Account holder name must be at least 3 characters';
  end if;
  perform app.check_length(v_holder, 'Account holder name', 255);
  if v_number is null or length(v_number) < 9 then
    raise exception using errcode = 'BT400', message = 'Account number must be valid';
  end if;
  perform app.check_length(v_number, 'Account number', 50);
  if v_ifsc is null or length(v_ifsc) <> 11 then
    raise exception using errcode = 'BT400', message = 'IFSC code must be 11 characters';
  end if;
  if v_bank is null or length(v_bank) < 3 then
    raise exception using errcode = 'BT400', message = 'Bank name must be at least 3 characters';
  end if;
  perform app.check_length(v_bank, 'Bank name', 255);
  v_key := app.bank_account_key(v_number, v_ifsc);
  perform app.refuse_held_bank_account(v_user.id, v_key);

  begin
    insert into public.bank_accounts (user_id, account_holder, account_number, ifsc_code, bank_name)
    values (v_user.id, v_holder, v_number, v_ifsc, v_bank)
    returning * into v_account;
  exception when unique_violation then
    -- an account that holds it committed meanwhile: the answer it would have had a moment later
    perform app.refuse_held_bank_account(v_user.id, v_key);
    raise;
  end;
  return v_account;
end;
$$;
comment on function app.add_bank_account(text, text, text, text) is
  'Adds a bank account owned by the caller, unless an account already holds it. Caller: API as the player.';

-- Refuses a bank account (app.bank_account_key p_key) that an account holds, for p_user_id adding it: 409 'Bank
-- account already added' (their own), 403 'This bank account cannot be used' (a self-excluded player's: the
-- message says nothing about whose it is or why), 409 'This bank account is already in use' (anyone else's).
-- Internal: app.add_bank_account.
create function app.refuse_held_bank_account(p_user_id bigint, p_key text)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if exists (select 1 from public.bank_accounts b
             where app.bank_account_key(b.account_number, b.ifsc_code) = p_key and b.user_id = p_user_id) then
    raise exception using errcode = 'BT409', message = 'Bank account already added';
  end if;
  if exists (select 1 from public.bank_accounts b
             where app.bank_account_key(b.account_number, b.ifsc_code) = p_key and app.is_self_excluded(b.user_id)) then
    raise exception using errcode = 'BT403', message = 'This bank account cannot be used';
  end if;
  if exists (select 1 from public.bank_accounts b where app.bank_account_key(b.account_number, b.ifsc_code) = p_key) then
    raise exception using errcode = 'BT409', message = 'This bank account is already in use';
  end if;
end;
$$;
comment on function app.refuse_held_bank_account(bigint, text) is
  'Internal: refuses a bank account the caller or another account already holds (409; 403 for a self-excluded holder).';

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
create or replace function app.register_user(
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

/** Function privileges */

revoke execute on function
  app.bank_account_json(public.bank_accounts),
  app.bank_account_key(text, text),
  app.refuse_held_bank_account(bigint, text),
  app.refuse_held_phone(text, bigint),
  app.update_profile(jsonb)
  from public, anon, authenticated, service_role;
grant execute on function app.update_profile(jsonb) to service_role;
grant execute on function app.bank_account_json(public.bank_accounts) to authenticated, service_role;
