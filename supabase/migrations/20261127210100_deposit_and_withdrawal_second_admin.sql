-- No insider alone on a money path: a deposit no gateway confirmed and a withdrawal, from
-- adjustment_review_amount up, need two admins like a large admin credit: the first approval is recorded
-- (app.transaction_approvals) and answered 202 with the transaction still pending, the same admin again is a
-- 403, another admin completes it. Every approval of a deposit counts against its admin's daily credit cap
-- (admin_credit_per_day), which before counted only the credits an admin asked for. The rule is decided in
-- one place (app.second_admin_approval), the cap in another (app.check_credit_cap).

/** Tables */

-- Each admin's approval of a pending deposit or withdrawal: who approved it and when. From
-- adjustment_review_amount up a second admin's approval completes it, so the first one is kept here until
-- then; every approval of a deposit counts against its admin's daily credit cap.
create table app.transaction_approvals (
  transaction_id bigint not null references public.transactions (id) on delete cascade,
  admin_id bigint not null references public.users (id),
  approved_at timestamptz not null default now(),
  constraint transaction_approvals_pkey primary key (transaction_id, admin_id)
);
comment on table app.transaction_approvals is
  'Admins'' approvals of pending deposits and withdrawals (two from adjustment_review_amount up).';
-- foreign key; an admin's approvals of the last 24 hours (the credit cap)
create index transaction_approvals_admin_idx on app.transaction_approvals (admin_id, approved_at);
revoke all on app.transaction_approvals from public, anon, authenticated, service_role;

/** Functions */

-- 'deposit', 'withdrawal' or 'adjustment': a pending transaction as the four-eyes messages name it.
create function app.pending_kind(p_type text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case p_type when 'admin_adjustment' then 'adjustment' else p_type end
$$;
comment on function app.pending_kind(text) is 'Internal: the word the four-eyes messages use for a transaction type.';

-- Four eyes on the money an admin releases: whether p_admin's approval of the pending transaction p_tx
-- (locked by the caller) completes it, recording the approval. A deposit or withdrawal below
-- adjustment_review_amount needs one admin; from that amount, two different ones: the first approval leaves
-- it pending (false), the same admin again is a 403 'A second administrator must approve this deposit'
-- ('… this withdrawal'). A pending admin credit already has its first admin, the one who asked for it (who
-- may not decide it at all: app.lock_pending_transaction). Every approval path calls this, and nothing else
-- decides whether one admin is enough.
create function app.second_admin_approval(p_tx public.transactions, p_admin public.users)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  v_seconded boolean;
begin
  if exists (select 1 from app.transaction_approvals a where a.transaction_id = p_tx.id and a.admin_id = p_admin.id) then
    raise exception using errcode = 'BT403',
      message = 'A second administrator must approve this ' || app.pending_kind(p_tx.type);
  end if;
  v_seconded := p_tx.requested_by is not null
    or exists (select 1 from app.transaction_approvals a where a.transaction_id = p_tx.id);
  if p_tx.type in ('deposit', 'withdrawal') then
    insert into app.transaction_approvals (transaction_id, admin_id) values (p_tx.id, p_admin.id);
  end if;
  return v_seconded or abs(p_tx.amount) < (app.current_risk_settings()).adjustment_review_amount;
end;
$$;
comment on function app.second_admin_approval(public.transactions, public.users) is
  'Internal: records an admin''s approval of a pending transaction and says whether it completes it (two admins from adjustment_review_amount up).';

-- The answer to a first approval that leaves a transaction waiting for a second admin: 'A second
-- administrator must approve deposits of ₹50,000 or more' (withdrawals likewise; the amount is the setting's).
-- Caller: API, after app.approve_transaction answered a transaction still pending.
create function app.second_admin_notice(p_type text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return format('A second administrator must approve %ss of %s or more', app.pending_kind(p_type),
                app.format_rupees((app.current_risk_settings()).adjustment_review_amount));
end;
$$;
comment on function app.second_admin_notice(text) is
  'The 202 answer of a first approval: a second administrator must approve {kind}s of {amount} or more. Caller: API.';

-- What p_admin_id may still credit: 409 'Daily credit limit reached' unless p_amount more stays within
-- admin_credit_per_day over the last 24 hours. Counted: the credits the admin asked for (pending ones
-- included, rejected ones not) and the deposits they approved (each approval, first or second; not those that
-- failed), except those of p_except (the transaction being approved, counted as p_amount). Serialized per
-- admin by an advisory lock taken first, so two requests of one admin cannot pass the cap together; callers
-- take it before any user row (the lock order of app.admin_adjust_wallet and app.approve_transaction).
create function app.check_credit_cap(p_admin_id bigint, p_amount bigint, p_except bigint default null)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_since timestamptz := now() - interval '24 hours';
  v_credited bigint;
begin
  perform pg_advisory_xact_lock(hashtextextended('admin-credit:' || p_admin_id, 0));
  select coalesce(sum(t.amount), 0) into v_credited
    from public.transactions t
    where t.requested_by = p_admin_id and t.created_at > v_since and t.amount > 0 and t.status <> 'failed';
  select v_credited + coalesce(sum(t.amount), 0) into v_credited
    from app.transaction_approvals a
    join public.transactions t on t.id = a.transaction_id
    where a.admin_id = p_admin_id and a.approved_at > v_since and t.type = 'deposit' and t.status <> 'failed'
      and a.transaction_id is distinct from p_except;
  if v_credited + p_amount > (app.current_risk_settings()).admin_credit_per_day then
    raise exception using errcode = 'BT409', message = 'Daily credit limit reached';
  end if;
end;
$$;
comment on function app.check_credit_cap(bigint, bigint, bigint) is
  'Internal: 409 unless an admin''s credits and approved deposits of 24 hours plus this stay within admin_credit_per_day.';

-- Approves a pending transaction (not the admin's own). Two admins from adjustment_review_amount up
-- (app.second_admin_approval): a first approval is recorded and answered with the transaction still pending
-- (audit 'transaction.first_approval'); the approval that completes it moves the money. A deposit (money no
-- gateway confirmed) counts against the approving admin's daily credit cap (409 'Daily credit limit
-- reached'), is never approved while its player is self-excluded (409 'This player is self-excluded') and is
-- then completed and credited; a withdrawal is debited (re-checked against the balance); an admin credit is
-- applied, by an admin other than the one who asked for it (403 'A second administrator must approve this
-- adjustment'). Lock order: the transaction, the admin's credit lock, then the user.
create or replace function app.approve_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions;
  v_tx public.transactions;
  v_complete boolean;
  v_balance bigint;
begin
  v_before := app.lock_pending_transaction(p_transaction_id, v_admin);
  v_complete := app.second_admin_approval(v_before, v_admin);
  if v_before.type = 'deposit' then
    perform app.check_credit_cap(v_admin.id, v_before.amount, v_before.id);
    -- the player's row, which a self-exclusion takes too: one that started before is seen here, one that
    -- starts later comes after this approval
    perform 1 from public.users where id = v_before.user_id for update;
    if app.is_self_excluded(v_before.user_id) then
      raise exception using errcode = 'BT409', message = 'This player is self-excluded';
    end if;
  end if;
  if not v_complete then
    perform app.audit(v_admin.id, 'transaction.first_approval', 'transaction', v_before.id, to_jsonb(v_before),
      jsonb_build_object('status', 'pending', 'waiting_for', 'a second administrator'));
    return v_before;
  end if;

  if v_before.type = 'deposit' then
    v_tx := app.apply_deposit(v_before.id, null);
  else
    -- a withdrawal (negative) or an admin credit: the balance moves by the amount
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
  'Approves a pending deposit (credit) or withdrawal (debit) of another user; from adjustment_review_amount up a first approval waits for a second admin. Caller: API as an admin.';

-- An admin's wallet adjustment (signed; |amount| 1–100000; notes required, at most 200 characters; never
-- the admin's own wallet; a debit may not take the available balance below zero). A credit counts towards
-- the admin's admin_credit_per_day over the last 24 hours, pending credits included (409 'Daily credit
-- limit reached', app.check_credit_cap, whose lock comes first). A credit of at least adjustment_review_amount
-- is written pending (balance untouched) for another admin to approve or reject; anything else moves money at
-- once. Audited either way.
create or replace function app.admin_adjust_wallet(p_user_id bigint, p_amount bigint, p_notes text)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_settings app.risk_settings := app.current_risk_settings();
  v_notes text := btrim(p_notes);
  v_pending boolean := p_amount >= v_settings.adjustment_review_amount;
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

  if p_amount > 0 then
    perform app.check_credit_cap(v_admin.id, p_amount);
  end if;

  select * into v_before from public.users where id = p_user_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  -- the user row is locked, so no withdrawal can be requested or approved meanwhile
  if p_amount < 0 and app.available_balance(v_before.id) + p_amount < 0 then
    raise exception using errcode = 'BT409', message = 'Insufficient balance';
  end if;

  select * into v_tx from app.post_transfers(array[
    app.ledger_row(v_before.id, 'admin_adjustment', p_amount, case when v_pending then 'pending' else 'completed' end,
                   p_notes => v_notes, p_requested_by => v_admin.id)]);
  if v_pending then
    perform app.audit(v_admin.id, 'wallet.adjust_requested', 'user', v_before.id,
      jsonb_build_object('wallet_balance', v_before.wallet_balance),
      jsonb_build_object('amount', p_amount, 'notes', v_notes, 'transaction_id', v_tx.id, 'status', 'pending'));
    return v_tx;
  end if;

  select * into v_after from public.users where id = v_before.id;
  perform app.audit(v_admin.id, 'wallet.adjust', 'user', v_before.id,
    jsonb_build_object('wallet_balance', v_before.wallet_balance),
    jsonb_build_object('wallet_balance', v_after.wallet_balance, 'amount', p_amount, 'notes', v_notes,
                       'transaction_id', v_tx.id));
  return v_tx;
end;
$$;
comment on function app.admin_adjust_wallet(bigint, bigint, text) is
  'Credits or debits another user''s wallet with a reason (admin_adjustment). Caller: API as an admin.';

/** Function privileges */

revoke execute on function
  app.pending_kind(text),
  app.second_admin_approval(public.transactions, public.users),
  app.second_admin_notice(text),
  app.check_credit_cap(bigint, bigint, bigint)
  from public, anon, authenticated, service_role;
grant execute on function app.second_admin_notice(text) to service_role;
