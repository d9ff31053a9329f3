-- Deposits: a payment the gateway confirms after an admin rejected the deposit (or after it expired
-- unanswered, 20261122100000_stale_deposits.sql) is credited.
--
-- Until now app.complete_deposit answered such a confirmation 200 without crediting and left an audit row
-- 'deposit_paid_after_rejection' for the admins, who had to notice it and credit by adjustment. The
-- gateway's signed success proves the money arrived, so the player should not depend on an admin noticing:
-- the late success now completes the deposit like any other (ledger row, wallet credited once, the
-- first-deposit referral bonus), and an audit row 'deposit.paid_after_rejection' names the rejection it
-- overrides. Replays move nothing; another gateway id for the same deposit stays a 409.

/** Functions */

-- The payment gateway's confirmation (signed webhook; the API verifies the signature). No claims.
-- 'success' completes and credits the stored amount once (plus a first-deposit referral bonus);
-- 'failed' marks the deposit failed. Unknown reference 404; amount differing from the stored one 409;
-- a replay of the event already applied returns the row unchanged; a conflicting event on a settled
-- deposit is a 409 'Transaction already settled', except:
--   * a 'success' for a deposit we failed — an admin rejected it (audit 'transaction.reject') or the
--     stale-deposit job expired it after 24 hours without an answer (audit 'deposit.expired') — the money
--     arrived, so it is completed and credited as if it were pending, with an audit row
--     'deposit.paid_after_rejection' (admin_id null; before = the failure: its audit id and action, the
--     admin (none for an expiry) and time; after = gateway id, amount, status). Once completed, a replay with the same gateway id moves nothing and another gateway id is
--     a 409 like for any completed deposit.
--   * unless the previous rule already recorded that payment without crediting it (audit row
--     'deposit_paid_after_rejection', written before this migration): the admins were told to credit it
--     by adjustment and may have done so, so it is answered as then, 200 with no change.
-- A gateway id stored on another deposit is a 409 'Duplicate gateway transaction', also when a concurrent
-- webhook for another deposit stores it first (the unique violation is caught: a 409, not a 500).
create or replace function app.complete_deposit(p_reference text, p_amount bigint, p_status text, p_gateway_txn_id text)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_tx public.transactions;
  v_gateway text := nullif(btrim(p_gateway_txn_id), '');
  v_rejection public.audit_log;
  v_constraint text;
begin
  if p_status is null or p_status not in ('success', 'failed') then
    raise exception using errcode = 'BT400', message = 'Invalid status';
  end if;
  perform app.check_length(v_gateway, 'Gateway transaction id', 255);
  select * into v_tx from public.transactions
    where type = 'deposit' and reference_id = p_reference
    for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Unknown reference';
  end if;
  if p_amount is distinct from v_tx.amount then
    raise exception using errcode = 'BT409', message = 'Amount mismatch';
  end if;

  if v_tx.status <> 'pending' then
    if ((v_tx.status = 'completed' and p_status = 'success') or (v_tx.status = 'failed' and p_status = 'failed'))
       and (v_gateway is null or v_tx.gateway_txn_id is null or v_tx.gateway_txn_id = v_gateway) then
      return v_tx;  -- replay of the event already applied
    end if;
    if v_tx.status = 'failed' and p_status = 'success' then
      select * into v_rejection from public.audit_log a
        where a.action in ('transaction.reject', 'deposit.expired') and a.target_type = 'transaction'
          and a.target_id = v_tx.id
        order by a.id desc
        limit 1;
    end if;
    if v_rejection.id is null then
      raise exception using errcode = 'BT409', message = 'Transaction already settled';
    end if;
    if exists (
      select 1 from public.audit_log a
      where a.action = 'deposit_paid_after_rejection' and a.target_type = 'transaction' and a.target_id = v_tx.id
    ) then
      return v_tx;  -- recorded uncredited by the previous rule: the admins settle it
    end if;
  end if;

  if v_gateway is not null and exists (
    select 1 from public.transactions where gateway_txn_id = v_gateway and id <> v_tx.id
  ) then
    raise exception using errcode = 'BT409', message = 'Duplicate gateway transaction';
  end if;

  begin
    if p_status = 'success' then
      v_tx := app.apply_deposit(v_tx.id, v_gateway);
      if v_rejection.id is not null then
        perform app.audit(null, 'deposit.paid_after_rejection', 'transaction', v_tx.id,
          jsonb_build_object('status', 'failed', 'rejection_audit_id', v_rejection.id, 'failed_by', v_rejection.action,
                             'rejected_by', v_rejection.admin_id, 'rejected_at', v_rejection.created_at),
          jsonb_build_object('status', v_tx.status, 'gateway_txn_id', v_gateway, 'amount', v_tx.amount));
      end if;
      return v_tx;
    end if;
    update public.transactions
      set status = 'failed', gateway_txn_id = v_gateway, updated_at = now()
      where id = v_tx.id
      returning * into v_tx;
    return v_tx;
  exception when unique_violation then
    -- a concurrent webhook for another deposit stored the same gateway id first
    get stacked diagnostics v_constraint = constraint_name;
    if v_constraint = 'transactions_gateway_txn_id_key' then
      raise exception using errcode = 'BT409', message = 'Duplicate gateway transaction';
    end if;
    raise;
  end;
end;
$$;
comment on function app.complete_deposit(text, bigint, text, text) is
  'Payment webhook: completes (credits once) or fails a pending deposit, and credits one an admin rejected; idempotent. Caller: API, no claims.';

/** Function privileges */

-- `create or replace` keeps the grants of 20261121000200_wallet.sql (service_role only); restated here so
-- this file alone says who may call it.
revoke execute on function app.complete_deposit(text, bigint, text, text) from public, anon, authenticated;
grant execute on function app.complete_deposit(text, bigint, text, text) to service_role;
