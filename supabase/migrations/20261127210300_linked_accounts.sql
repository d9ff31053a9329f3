-- One person, one account (continued): what links accounts, and an exclusion that follows the person.
--
--   * app.linked_accounts: the accounts sharing a bank account or a phone number with a user (kept duplicates
--     from before one account per bank account and phone number), and those that signed in with the same
--     device within a window, each with why.
--   * A time-out or self-exclusion binds, from the moment it starts, every account linked by a bank account or
--     a phone number: each gets a row of its own in public.protection_changes that follows the player's
--     (follows_change_id, linked_by), so their bets and deposits answer the same 403, a self-exclusion fails
--     their pending deposits, and their sessions end. The player and those accounts are locked together in
--     id order (app.protected_player with p_with_linked). The history stays append-only: nothing lifts it.
--   * Admins see the linked accounts on a user's page (app.admin_linked_accounts) and may apply a running
--     exclusion to an account linked by a device (app.apply_linked_exclusion, audited).

/** Tables */

alter table public.protection_changes
  add column follows_change_id bigint references public.protection_changes (id),
  add column linked_by varchar(20) check (linked_by in ('bank_account', 'phone', 'device')),
  drop constraint protection_changes_by_player,
  add constraint protection_changes_by_player check (changed_by = user_id or follows_change_id is not null),
  add constraint protection_changes_follows check (
    (follows_change_id is null) = (linked_by is null)
    and (follows_change_id is null or kind in ('timeout', 'self_exclusion'))
  );
comment on column public.protection_changes.follows_change_id is
  'The linked account''s time-out or self-exclusion this row applies to this account too.';
-- foreign key: the accounts an exclusion follows to
create index protection_changes_follows_idx on public.protection_changes (follows_change_id)
  where follows_change_id is not null;

-- the other accounts that signed in with a device (linked accounts, app.linked_accounts)
create index user_devices_device_id_idx on app.user_devices (device_id, last_sign_in_at);

/** Functions */

-- The accounts linked to p_user_id: one person, one account, so accounts that share something only one
-- person has are that person's. One row per account and reason: a bank account ('bank_account', detail: its
-- IFSC and last four digits), a phone number ('phone', detail: the number) and, with p_device_window, a
-- device ('device', detail: when the other account last signed in with it), i.e. both accounts signed in
-- with the same device cookie within that window. A bank account or a phone number is shared only by
-- accounts from before the rule that gave each to one account (kept duplicates); a device may be anyone's
-- family computer, so it links for admins to judge, never by itself. Exclusions follow the bank and phone
-- links (app.start_exclusion), admins see all three (app.admin_linked_accounts), and a referrer is never paid
-- for an account linked to them (app.pay_referral_bonuses).
create function app.linked_accounts(p_user_id bigint, p_device_window interval default null)
returns table (user_id bigint, reason text, detail text)
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
    select other.user_id, 'bank_account', own.ifsc_code || ' ending ' || right(own.account_number, 4)
    from public.bank_accounts own
    join public.bank_accounts other
      on app.bank_account_key(other.account_number, other.ifsc_code) = app.bank_account_key(own.account_number, own.ifsc_code)
     and other.user_id <> own.user_id
    where own.user_id = p_user_id
    union
    select other.id, 'phone', own.phone::text
    from public.users own
    join public.users other on app.phone_key(other.phone) = app.phone_key(own.phone) and other.phone is not null
     and other.id <> own.id
    where own.id = p_user_id and own.phone is not null
    union
    select other.user_id, 'device', 'last signed in with it on ' || app.format_ist(max(other.last_sign_in_at))
    from app.user_devices own
    join app.user_devices other on other.device_id = own.device_id and other.user_id <> own.user_id
    where p_device_window is not null and own.user_id = p_user_id
      and own.last_sign_in_at > now() - p_device_window and other.last_sign_in_at > now() - p_device_window
    group by other.user_id;
end;
$$;
comment on function app.linked_accounts(bigint, interval) is
  'Internal: the accounts sharing a bank account or a phone number with a user (and a device, within a window), each with why.';

drop function app.protected_player(bigint);

-- The player whose protection a write changes: the caller (banned callers are refused by app.caller;
-- suspended ones may still protect themselves). Naming anyone else is a 403, for admins too: only the
-- player may change their own limits and exclusions. Locks the user row (the deposit and bet checks hold
-- the same lock); with p_with_linked also the rows of the accounts linked to it by a bank account or a phone
-- number (an exclusion binds them too), all in id order like every other path that locks several players.
create function app.protected_player(p_user_id bigint, p_with_linked boolean default false)
returns public.users
language plpgsql
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if p_user_id is not null and p_user_id <> v_user.id then
    raise exception using errcode = 'BT403',
      message = 'Only the player can change their own limits, time-out or self-exclusion';
  end if;
  perform 1 from public.users u
    where u.id in (select v_user.id union select l.user_id from app.linked_accounts(v_user.id) l where p_with_linked)
    order by u.id
    for update;
  select * into v_user from public.users where id = v_user.id;
  return v_user;
end;
$$;
comment on function app.protected_player(bigint, boolean) is
  'Internal: the caller, locked (and the accounts linked to it), for a protection write; 403 when another user is named.';

-- Fails the pending deposits of a player whose self-exclusion starts (audit 'deposit.failed_by_exclusion', no
-- admin): nobody may complete them for the player now, yet a payment that still arrives is credited
-- (app.complete_deposit) and can be withdrawn. A deposit that a webhook or an admin is completing at this very
-- moment (its row locked) is skipped: it completes, or the approval sees the exclusion and refuses.
create function app.fail_pending_deposits(p_user_id bigint)
returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into public.audit_log (admin_id, action, target_type, target_id, before, after)
  select null, 'deposit.failed_by_exclusion', 'transaction', f.id,
         jsonb_build_object('status', 'pending'), jsonb_build_object('status', 'failed', 'amount', f.amount)
  from app.post_transfers(array(
    select app.ledger_decision(t.id, 'failed')
    from public.transactions t
    where t.user_id = p_user_id and t.type = 'deposit' and t.status = 'pending'
    for update skip locked)) f;
end;
$$;
comment on function app.fail_pending_deposits(bigint) is
  'Internal: fails a self-excluded player''s pending deposits (audited), skipping any being completed right now.';

-- Binds p_user_id (locked by the caller) by p_change, the running time-out or self-exclusion of an account
-- linked to it (p_linked_by: 'bank_account', 'phone' or 'device'), from p_now to its end: a row of its own that
-- follows p_change, written by p_by (that account's player, or the admin who applied it). Bets and deposits
-- then answer the same 403 as on that account, a self-exclusion fails the pending deposits, and the account's
-- sessions end (whoever holds them signs in again and finds the account barred).
create function app.follow_exclusion(
  p_user_id bigint, p_change public.protection_changes, p_by bigint, p_linked_by text, p_now timestamptz
)
returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into public.protection_changes
    (user_id, changed_by, kind, requested_at, effective_at, ends_at, follows_change_id, linked_by)
  values (p_user_id, p_by, p_change.kind, p_now, p_now, p_change.ends_at, p_change.id, p_linked_by);
  if p_change.kind = 'self_exclusion' then
    perform app.fail_pending_deposits(p_user_id);
  end if;
  delete from app.sessions where user_id = p_user_id;
end;
$$;
comment on function app.follow_exclusion(bigint, public.protection_changes, bigint, text, timestamptz) is
  'Internal: binds a locked account by a linked account''s running exclusion and ends its sessions.';

-- Starts a time-out or self-exclusion of p_user at p_now until p_ends_at; a request ending no later than the
-- one running is a 409. It binds at once every account linked to the player by a bank account or a phone
-- number (app.follow_exclusion), so a second account of the same person cannot go on playing. The caller
-- holds the locks of the player and of those accounts (app.protected_player with p_with_linked). A
-- self-exclusion also fails the player's pending deposits.
create or replace function app.start_exclusion(p_user public.users, p_kind text, p_ends_at timestamptz, p_now timestamptz)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_running public.protection_changes;
  v_change public.protection_changes;
  v_link record;
begin
  select * into v_running from app.active_exclusion(p_user.id, p_now);
  if found and v_running.ends_at >= p_ends_at then
    raise exception using errcode = 'BT409', message = format('Already excluded: Your %s runs until %s.',
      case v_running.kind when 'timeout' then 'time-out' else 'self-exclusion' end, app.format_ist(v_running.ends_at));
  end if;
  insert into public.protection_changes (user_id, changed_by, kind, requested_at, effective_at, ends_at)
  values (p_user.id, p_user.id, p_kind, p_now, p_now, p_ends_at)
  returning * into v_change;
  if p_kind = 'self_exclusion' then
    perform app.fail_pending_deposits(p_user.id);
  end if;
  for v_link in
    select l.user_id, min(l.reason) as reason
    from app.linked_accounts(p_user.id) l
    group by l.user_id
    order by l.user_id
  loop
    perform app.follow_exclusion(v_link.user_id, v_change, p_user.id, v_link.reason, p_now);
  end loop;
  return app.protection_json(p_user.id, p_now);
end;
$$;
comment on function app.start_exclusion(public.users, text, timestamptz, timestamptz) is
  'Internal: records a time-out or self-exclusion for a locked player (and its linked accounts) unless one running ends later.';

-- POST /api/account/timeout: a time-out of 1, 7, 30 or 42 days for the caller (and their linked accounts), at once.
create or replace function app.take_timeout(p_days int, p_user_id bigint default null, p_now timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(p_user_id, p_with_linked => true);
begin
  if p_days is null or p_days not in (1, 7, 30, 42) then
    raise exception using errcode = 'BT400', message = 'A time-out lasts 1, 7, 30 or 42 days';
  end if;
  return app.start_exclusion(v_user, 'timeout', p_now + p_days * interval '1 day', p_now);
end;
$$;
comment on function app.take_timeout(int, bigint, timestamptz) is
  'Starts the caller''s time-out (1, 7, 30 or 42 days), effective at once. Caller: API as the player.';

-- POST /api/account/self-exclusion: self-exclusion for 6, 12 or 60 months for the caller (and their linked
-- accounts), at once.
create or replace function app.self_exclude(p_months int, p_user_id bigint default null, p_now timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(p_user_id, p_with_linked => true);
begin
  if p_months is null or p_months not in (6, 12, 60) then
    raise exception using errcode = 'BT400', message = 'A self-exclusion lasts 6, 12 or 60 months';
  end if;
  return app.start_exclusion(v_user, 'self_exclusion', p_now + p_months * interval '1 month', p_now);
end;
$$;
comment on function app.self_exclude(int, bigint, timestamptz) is
  'Starts the caller''s self-exclusion (6, 12 or 60 months), effective at once. Caller: API as the player.';

-- POST /api/admin/users/{id}/linked/{from}/exclusion: an admin applies the running time-out or
-- self-exclusion of account p_from_user_id to account p_user_id, which a device links to it (both signed in
-- with the same device cookie within 90 days: app.linked_accounts). A device may be a family's, so this is an
-- admin's judgement, never automatic; accounts linked by a bank account or a phone number are bound at once
-- anyway. 404 for an unknown account, 409 'These accounts are not linked by a device', 409 'This player has no
-- running exclusion', 409 'This account is already bound by that exclusion'. Both accounts are locked in id
-- order. The exclusion then binds the account like its own (app.follow_exclusion; nobody can lift it) and is
-- audited ('protection.apply_linked_exclusion'). Answers the account's protection. Caller: API as an admin.
create function app.apply_linked_exclusion(p_user_id bigint, p_from_user_id bigint)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_now timestamptz;
  v_exclusion public.protection_changes;
begin
  if (select count(*) from public.users u where u.id in (p_user_id, p_from_user_id)) < 2 then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  if not exists (
    select 1 from app.linked_accounts(p_user_id, interval '90 days') l
    where l.user_id = p_from_user_id and l.reason = 'device'
  ) then
    raise exception using errcode = 'BT409', message = 'These accounts are not linked by a device';
  end if;
  perform 1 from public.users u where u.id in (p_user_id, p_from_user_id) order by u.id for update;
  v_now := clock_timestamp();
  select * into v_exclusion from app.active_exclusion(p_from_user_id, v_now);
  if not found then
    raise exception using errcode = 'BT409', message = 'This player has no running exclusion';
  end if;
  if exists (select 1 from public.protection_changes c
             where c.user_id = p_user_id and c.follows_change_id = v_exclusion.id) then
    raise exception using errcode = 'BT409', message = 'This account is already bound by that exclusion';
  end if;
  perform app.follow_exclusion(p_user_id, v_exclusion, v_admin.id, 'device', v_now);
  perform app.audit(v_admin.id, 'protection.apply_linked_exclusion', 'user', p_user_id, null,
    jsonb_build_object('from_user_id', p_from_user_id, 'kind', v_exclusion.kind, 'ends_at', v_exclusion.ends_at,
                       'linked_by', 'device'));
  return app.protection_json(p_user_id, v_now);
end;
$$;
comment on function app.apply_linked_exclusion(bigint, bigint) is
  'Applies a running exclusion to an account linked to its player by a device (audited). Caller: API as an admin.';

-- GET /api/admin/users/{id}/linked: the accounts linked to a user (app.linked_accounts: a shared bank account
-- or phone number, or a device both signed in with within 90 days), by account id, each with why ('links':
-- reason and detail) and its running time-out or self-exclusion ('exclusion': kind, end, and whether it binds
-- this user already), or null. 404 for an unknown user. Admins only (checked here). Caller: API as an admin.
create function app.admin_linked_accounts(p_user_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app.require_admin();
  if not exists (select 1 from public.users u where u.id = p_user_id) then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', u.id, 'username', u.username, 'name', u.name, 'status', u.status, 'links', l.links,
             'exclusion', (
               select jsonb_build_object('kind', e.kind, 'ends_at', e.ends_at, 'binds_this_user', exists (
                        select 1 from public.protection_changes c
                        where c.user_id = p_user_id
                          and (c.id in (e.id, e.follows_change_id) or c.follows_change_id in (e.id, e.follows_change_id))))
               from app.active_exclusion(u.id, now()) e))
           order by u.id)
    from (select k.user_id, jsonb_agg(jsonb_build_object('reason', k.reason, 'detail', k.detail) order by k.reason) as links
          from app.linked_accounts(p_user_id, interval '90 days') k
          group by k.user_id) l
    join public.users u on u.id = l.user_id), '[]'::jsonb);
end;
$$;
comment on function app.admin_linked_accounts(bigint) is
  'The accounts linked to a user by a bank account, a phone number or a device, each with why. Caller: API as an admin.';

/** Function privileges */

revoke execute on function
  app.linked_accounts(bigint, interval),
  app.protected_player(bigint, boolean),
  app.fail_pending_deposits(bigint),
  app.follow_exclusion(bigint, public.protection_changes, bigint, text, timestamptz),
  app.apply_linked_exclusion(bigint, bigint),
  app.admin_linked_accounts(bigint)
  from public, anon, authenticated, service_role;
grant execute on function
  app.apply_linked_exclusion(bigint, bigint),
  app.admin_linked_accounts(bigint)
  to service_role;
