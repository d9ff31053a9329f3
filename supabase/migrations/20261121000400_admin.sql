-- Back office: approving and rejecting pending transactions, wallet adjustments, user status, dashboard
-- statistics. Every function here checks the caller is an active admin in public.users (not only the
-- claim) and appends an audit_log row for each write. No admin may approve, reject or adjust their own
-- money (403 'You cannot approve or adjust your own wallet'): another admin must do it.

/** Functions: pending transactions */

-- Approves a pending deposit or withdrawal of another user (an admin's own is a 403 'You cannot approve or
-- adjust your own wallet'). A deposit is completed and credited exactly like a successful gateway
-- confirmation (including the first-deposit referral bonus). A withdrawal debits the wallet now,
-- re-checking that the balance covers it (409 'Insufficient balance' otherwise). Only pending rows:
-- anything else is a 409 'Transaction is not pending' (so two concurrent approvals pay once).
create function app.approve_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions;
  v_tx public.transactions;
  v_balance bigint;
begin
  select * into v_before from public.transactions where id = p_transaction_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Transaction not found';
  end if;
  if v_before.user_id = v_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot approve or adjust your own wallet';
  end if;
  if v_before.status <> 'pending' then
    raise exception using errcode = 'BT409', message = 'Transaction is not pending';
  end if;

  if v_before.type = 'deposit' then
    v_tx := app.apply_deposit(v_before.id, null);
  else
    -- withdrawal (the only other type that can be pending)
    select wallet_balance into v_balance from public.users where id = v_before.user_id for update;
    if v_balance + v_before.amount < 0 then
      raise exception using errcode = 'BT409', message = 'Insufficient balance';
    end if;
    update public.transactions set status = 'completed', updated_at = now()
      where id = v_before.id
      returning * into v_tx;
    update public.users set wallet_balance = wallet_balance + v_tx.amount where id = v_tx.user_id;
  end if;
  perform app.audit(v_admin.id, 'transaction.approve', 'transaction', v_tx.id, to_jsonb(v_before), to_jsonb(v_tx));
  return v_tx;
end;
$$;
comment on function app.approve_transaction(bigint) is
  'Approves a pending deposit (credit) or withdrawal (debit) of another user. Caller: API as an admin.';

-- Rejects another user's pending deposit or withdrawal: marked failed, no funds move (spec §8.3). An
-- admin's own transaction is a 403 'You cannot approve or adjust your own wallet'.
create function app.reject_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions;
  v_tx public.transactions;
begin
  select * into v_before from public.transactions where id = p_transaction_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Transaction not found';
  end if;
  if v_before.user_id = v_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot approve or adjust your own wallet';
  end if;
  if v_before.status <> 'pending' then
    raise exception using errcode = 'BT409', message = 'Transaction is not pending';
  end if;
  update public.transactions set status = 'failed', updated_at = now()
    where id = v_before.id
    returning * into v_tx;
  perform app.audit(v_admin.id, 'transaction.reject', 'transaction', v_tx.id, to_jsonb(v_before), to_jsonb(v_tx));
  return v_tx;
end;
$$;
comment on function app.reject_transaction(bigint) is
  'Rejects another user''s pending transaction (no funds move). Caller: API as an admin.';

/** Functions: users */

-- Credits (positive) or debits (negative) another user's wallet with an admin_adjustment ledger row carrying
-- the reason (an admin's own wallet is a 403 'You cannot approve or adjust your own wallet').
-- 1 <= |amount| <= 100000; notes required, at most 200 characters; a debit may not take the AVAILABLE
-- balance (balance − pending withdrawals) below zero (409 'Insufficient balance'): the later approval of
-- the pending withdrawal would then fail or overdraw.
create function app.admin_adjust_wallet(p_user_id bigint, p_amount bigint, p_notes text)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_notes text := btrim(p_notes);
  v_before public.users;
  v_after public.users;
  v_tx public.transactions;
begin
  if p_amount is null or p_amount = 0 then
    raise exception using errcode = 'BT400', message = 'Amount must be greater than 0';
  end if;
  if abs(p_amount) > 100000 then
    raise exception using errcode = 'BT400', message = 'Maximum amount is 100,000';
  end if;
  if v_notes is null or v_notes = '' then
    raise exception using errcode = 'BT400', message = 'Please provide a reason for this adjustment';
  end if;
  if length(v_notes) > 200 then
    raise exception using errcode = 'BT400', message = 'Notes must be under 200 characters';
  end if;
  if p_user_id = v_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot approve or adjust your own wallet';
  end if;
  select * into v_before from public.users where id = p_user_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  -- the user row is locked, so no withdrawal can be requested or approved meanwhile
  if p_amount < 0 and app.available_balance(v_before.id) + p_amount < 0 then
    raise exception using errcode = 'BT409', message = 'Insufficient balance';
  end if;

  update public.users set wallet_balance = wallet_balance + p_amount where id = v_before.id
    returning * into v_after;
  insert into public.transactions (user_id, amount, type, status, notes)
  values (v_before.id, p_amount, 'admin_adjustment', 'completed', v_notes)
  returning * into v_tx;
  update public.transactions set reference_id = 'ADJ-' || v_tx.id where id = v_tx.id returning * into v_tx;
  perform app.audit(v_admin.id, 'wallet.adjust', 'user', v_before.id,
    jsonb_build_object('wallet_balance', v_before.wallet_balance),
    jsonb_build_object('wallet_balance', v_after.wallet_balance, 'amount', p_amount, 'notes', v_notes,
                       'transaction_id', v_tx.id));
  return v_tx;
end;
$$;
comment on function app.admin_adjust_wallet(bigint, bigint, text) is
  'Credits or debits another user''s wallet with a reason (admin_adjustment). Caller: API as an admin.';

-- Sets a user's status (active, suspended, banned). Banning deletes all the user's sessions at once.
-- An admin may not change their own status (403).
create function app.set_user_status(p_user_id bigint, p_status text)
returns public.users
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_status text := lower(btrim(p_status));
  v_before public.users;
  v_user public.users;
begin
  if v_status is null or v_status not in ('active', 'suspended', 'banned') then
    raise exception using errcode = 'BT400', message = 'Status must be one of active, suspended, banned';
  end if;
  if p_user_id = v_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot change your own status';
  end if;
  select * into v_before from public.users where id = p_user_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  update public.users set status = v_status where id = v_before.id returning * into v_user;
  if v_status = 'banned' then
    delete from app.sessions where user_id = v_user.id;
  end if;
  perform app.audit(v_admin.id, 'user.set_status', 'user', v_user.id,
    jsonb_build_object('status', v_before.status), jsonb_build_object('status', v_user.status));
  return v_user;
end;
$$;
comment on function app.set_user_status(bigint, text) is
  'Changes a user''s status; banning ends their sessions. Caller: API as an admin.';

/** Functions: dashboard */

-- Spec §3.7 statistics, camelCase keys. totalBets, totalTransactionVolume (sum of |amount| of completed
-- deposits and withdrawals) and activeUsers (users with a bet or a transaction) count the last 7 days;
-- the other figures are current totals. recentMatches / recentTransactions: the 5 newest.
create function app.dashboard_stats()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_since timestamptz := now() - interval '7 days';
  v_result jsonb;
begin
  perform app.require_admin();
  select jsonb_build_object(
    'totalUsers', (select count(*) from public.users),
    'activeUsers', (
      select count(*) from (
        select b.user_id from public.bets b where b.created_at >= v_since
        union
        select t.user_id from public.transactions t where t.created_at >= v_since
      ) a),
    'totalMatches', (select count(*) from public.matches),
    'liveMatches', (select count(*) from public.matches where status = 'live'),
    'upcomingMatches', (select count(*) from public.matches where status = 'upcoming'),
    'completedMatches', (select count(*) from public.matches where status = 'completed'),
    'totalBets', (select count(*) from public.bets where created_at >= v_since),
    'totalTransactionVolume', (
      select coalesce(sum(abs(amount)), 0) from public.transactions
      where created_at >= v_since and status = 'completed' and type in ('deposit', 'withdrawal')),
    'pendingDeposits', (select count(*) from public.transactions where type = 'deposit' and status = 'pending'),
    'pendingWithdrawals', (select count(*) from public.transactions where type = 'withdrawal' and status = 'pending'),
    'recentMatches', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', m.id, 'team1_name', t1.name, 'team2_name', t2.name,
               'start_time', m.start_time, 'status', m.status) order by m.created_at desc, m.id desc)
      from (select * from public.matches order by created_at desc, id desc limit 5) m
      join public.teams t1 on t1.id = m.team1_id
      join public.teams t2 on t2.id = m.team2_id), '[]'::jsonb),
    'recentTransactions', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', t.id, 'user_id', t.user_id, 'type', t.type, 'amount', t.amount, 'status', t.status)
             order by t.created_at desc, t.id desc)
      from (select * from public.transactions order by created_at desc, id desc limit 5) t), '[]'::jsonb)
  ) into v_result;
  return v_result;
end;
$$;
comment on function app.dashboard_stats() is 'Admin dashboard statistics (spec §3.7). Caller: API as an admin.';

/** Function privileges */

revoke execute on function
  app.approve_transaction(bigint),
  app.reject_transaction(bigint),
  app.admin_adjust_wallet(bigint, bigint, text),
  app.set_user_status(bigint, text),
  app.dashboard_stats()
  from public, anon, authenticated, service_role;
grant execute on function
  app.approve_transaction(bigint),
  app.reject_transaction(bigint),
  app.admin_adjust_wallet(bigint, bigint, text),
  app.set_user_status(bigint, text),
  app.dashboard_stats()
  to service_role;
