-- Wallet and ledger: bank accounts, the transactions ledger, deposits (gateway webhook), withdrawals, stale
-- deposits and the reconciliation check.
--
-- Ledger rules:
--   * users.wallet_balance = sum(transactions.amount where status = 'completed'), for every user, always.
--     Every balance change and its ledger row are written by the posting function, app.post_transfers (the
--     ledger area): a ledger row is a transfer between the player's wallet and a house account.
--     app.reconcile() lists violations.
--   * wallet_balance >= 0 (CHECK on public.users).
--   * available balance = wallet_balance - sum of the user's pending withdrawals; bets and new withdrawals
--     check the available balance.
--   * Locking: a money-moving function locks the rows it reads for its decision (`for update`) before
--     deciding, in a fixed order — match, then transaction, then users by ascending id — so concurrent
--     requests serialize on the same rows and never deadlock.

/** Tables */

-- A player's bank accounts, the destinations of withdrawals. Creation takes the owner from the session
-- (never from the request body). A bank account belongs to one account (one person, one account): two
-- accounts holding it are refused (app.add_bank_account; the unique index below), except the pairs that
-- already existed when the rule came, kept (kept_duplicate) and shown to admins as linked accounts.
create table public.bank_accounts (
  id bigint generated always as identity primary key,
  user_id bigint not null references public.users (id) on delete cascade,
  account_holder varchar(255) not null check (length(btrim(account_holder)) >= 3),
  account_number varchar(50) not null check (length(account_number) >= 9),
  ifsc_code varchar(50) not null check (length(ifsc_code) = 11 and ifsc_code = upper(ifsc_code)),
  bank_name varchar(255) not null check (length(btrim(bank_name)) >= 3),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  kept_duplicate boolean not null default false,
  constraint bank_accounts_user_account_key unique (user_id, account_number, ifsc_code)
);
comment on table public.bank_accounts is 'Players'' saved bank accounts, the destinations of withdrawals.';
comment on column public.bank_accounts.kept_duplicate is
  'Shared its bank account with an earlier row when one account per bank account became the rule: kept, outside the uniqueness.';
-- The unique (user_id, …) index above serves the foreign key and the RLS filter on user_id.

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
-- one account per bank account, whatever the code path
create unique index bank_accounts_one_account_key on public.bank_accounts (app.bank_account_key(account_number, ifsc_code))
  where not kept_duplicate;
-- the accounts holding a bank account, kept duplicates included (adding one, linked accounts, exclusions)
create index bank_accounts_account_idx on public.bank_accounts (app.bank_account_key(account_number, ifsc_code));

-- The ledger: deposits, withdrawals, bets placed, won, lost and refunded, referral bonuses, admin
-- adjustments and the reversals of a corrected settlement. Each row is a transfer between the player's wallet
-- and the house account its type names (app.ledger_types), written by app.post_transfers only. Amounts are
-- signed integer rupees; positive credits. Which sign and which status each type may have is a CHECK, so no
-- code path can write a credit as a debit.
create table public.transactions (
  id bigint generated always as identity primary key,
  user_id bigint not null references public.users (id) on delete restrict,
  amount bigint not null,
  type varchar(50) not null check (type in (
    'deposit', 'withdrawal', 'bet_placed', 'bet_won', 'bet_lost', 'bet_refund', 'referral_bonus', 'admin_adjustment',
    'settlement_reversal'
  )),
  status varchar(50) not null default 'pending' check (status in ('pending', 'completed', 'failed')),
  reference_id varchar(255),
  notes varchar(200),
  payment_method varchar(50),
  bank_account_id bigint references public.bank_accounts (id) on delete restrict,
  gateway_txn_id varchar(255),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  requested_by bigint references public.users (id) on delete set null,
  constraint transactions_amount_sign check (
    (type in ('deposit', 'bet_won', 'bet_refund', 'referral_bonus') and amount > 0)
    or (type in ('withdrawal', 'bet_placed', 'settlement_reversal') and amount < 0)
    or (type = 'bet_lost' and amount = 0)
    or (type = 'admin_adjustment' and amount <> 0)
  ),
  -- only deposits, withdrawals and large admin credits (a second admin approves them) wait for someone;
  -- every other entry is final when written
  constraint transactions_status_by_type check (type in ('deposit', 'withdrawal', 'admin_adjustment') or status = 'completed'),
  constraint transactions_requested_by_adjustment check (requested_by is null or type = 'admin_adjustment'),
  constraint transactions_withdrawal_account check (type <> 'withdrawal' or bank_account_id is not null),
  constraint transactions_deposit_method check (type <> 'deposit' or payment_method = 'upi')
);
comment on table public.transactions is
  'The ledger. wallet_balance = sum(amount) of completed rows per user (app.reconcile checks it).';
comment on column public.transactions.notes is 'Admin adjustment reason (max 200 characters).';
comment on column public.transactions.bank_account_id is 'Destination of a withdrawal.';
comment on column public.transactions.gateway_txn_id is 'Payment gateway transaction id of a completed/failed deposit.';
comment on column public.transactions.requested_by is 'The admin who made an admin_adjustment.';

-- Indexes of the ledger. Settlement writes one bet row per bet, the bulk of the ledger: the indexes that
-- serve the admin screens hold no bet rows, so settling a match maintains none of them, and "newest first"
-- is the order of ids (handed out in insertion order), so no list needs created_at in a B-tree.

-- A reference identifies one external event per type: a deposit reference (REF-…), a bet (BET-{id}) per
-- ledger type, a withdrawal (WD-{id}), an adjustment (ADJ-{id}), a referral (REFERRAL-{referred user id}).
-- Uniqueness makes a second payout for the same event impossible, whatever the code path.
create unique index transactions_type_reference_key on public.transactions (type, reference_id)
  where reference_id is not null;
create unique index transactions_gateway_txn_id_key on public.transactions (gateway_txn_id)
  where gateway_txn_id is not null;
-- foreign key, RLS filter, "my transactions, newest first"
create index transactions_user_id_idx on public.transactions (user_id, id);
-- foreign key: only withdrawals name a bank account
create index transactions_bank_account_id_idx on public.transactions (bank_account_id) where bank_account_id is not null;
-- the available-balance sum (a user's pending withdrawals)
create index transactions_pending_idx on public.transactions (type, user_id) where status = 'pending';
-- the deposits of one player in a rolling window, for the deposit-limit check on every deposit request (the
-- (user_id, id) index would visit all of a bettor's ledger rows; only deposit rows enter this one)
create index transactions_user_deposits_idx on public.transactions (user_id, created_at) where type = 'deposit';
-- the dashboard's 7-day windows: ranges over insertion order, which a BRIN index serves at a fraction of a
-- B-tree's upkeep
create index transactions_created_at_idx on public.transactions using brin (created_at);
-- the Pending tab, and Pending Withdrawals / pending deposits, newest first (pending rows are few: the
-- admins' queue)
create index transactions_pending_id_idx on public.transactions (id) where status = 'pending';
create index transactions_pending_type_id_idx on public.transactions (type, id) where status = 'pending';
-- the Deposits and Withdrawals tabs (and the rarer types) newest first; bet rows stay out
create index transactions_money_idx on public.transactions (type, id)
  where type in ('deposit', 'withdrawal', 'referral_bonus', 'admin_adjustment');
-- foreign key; an admin's credits of the last 24 hours (only adjustments carry it, so the index stays small)
create index transactions_requested_by_idx on public.transactions (requested_by, created_at) where requested_by is not null;
-- the dashboard's transaction volume of the last 7 days, from the index alone
create index transactions_money_volume_idx on public.transactions (created_at) include (amount)
  where status = 'completed' and type in ('deposit', 'withdrawal');

-- Referral bonuses are earned by what the house made, as affiliate programmes pay: a referrer's bonus is paid
-- once the house's result on the referred player's settled bets (their losses minus their winnings) reaches
-- the bonus, so two referred accounts backing opposite sides of a match earn nothing on the one that wins,
-- and the one that loses pays for its own bonus. Never for an account linked to its referrer (a shared bank
-- account, phone number or device: app.linked_accounts), which is the same person's second account: such a
-- referral is marked (linked_at) as soon as the link is seen and never paid. At most
-- referral_bonuses_per_month per referrer in 30 days.
-- Each referred player's way to their referrer's bonus. Written at registration (a referral code), by
-- settlement (house_result) and when a link to the referrer is seen (at sign-in and at payment).
create table app.referrals (
  user_id bigint primary key references public.users (id) on delete cascade,
  referrer_id bigint not null references public.users (id) on delete cascade,
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  -- the house's result on the referred player's settled bets: stakes lost minus winnings paid
  house_result bigint not null default 0,
  -- when the referred account was found linked to its referrer: the bonus is never paid
  linked_at timestamptz,
  constraint referrals_not_self check (referrer_id <> user_id)
);
comment on table app.referrals is
  'Referred players: the bonus is due once house_result (the house''s result on their settled bets) reaches it, never once linked_at; paid_at once paid.';
-- foreign key; the monthly cap counts a referrer's recent bonuses
create index referrals_referrer_id_paid_at_idx on app.referrals (referrer_id, paid_at);
revoke all on app.referrals from public, anon, authenticated, service_role;

/** Settings */

insert into app.settings (key, value, description) values
  ('referral_bonus_amount', '100',
   'Rupees credited to the referrer once the house''s result on the referred player''s settled bets reaches them.');

/** Privileges */

revoke all on public.bank_accounts, public.transactions from anon, authenticated, service_role;
grant select on public.bank_accounts, public.transactions to authenticated, service_role;

/** Policies */

-- Reads only: there are no insert/update/delete policies (and no such grants): money and bank accounts
-- change only through the app.* functions below.
alter table public.bank_accounts enable row level security;
create policy "Users can read their own bank accounts; admins read all"
  on public.bank_accounts for select to authenticated
  using (user_id = (select app.current_user_id()) or (select app.is_admin()));

alter table public.transactions enable row level security;
create policy "Users can read their own transactions; admins read all"
  on public.transactions for select to authenticated
  using (user_id = (select app.current_user_id()) or (select app.is_admin()));

/** Functions: answer shapes */

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

/** Functions: referral bonuses */

-- Pays the referral bonuses now due to the referrers of p_referred: each whose house_result reached the bonus
-- and is not paid yet, at most referral_bonuses_per_month per referrer in 30 days (a bonus over the cap stays
-- due: it is paid at the referred player's next settlement that finds room). A referred account linked to its
-- referrer (app.linked_accounts, devices within 90 days) is marked linked and never paid. Callers hold the
-- row locks of the referred players and of their referrers (so a referrer's count cannot change under them).
-- The unique REFERRAL-{referred user id} reference keeps every bonus to one payment.
create function app.pay_referral_bonuses(p_referred bigint[])
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_bonus bigint := (select (s.value #>> '{}')::bigint from app.settings s where s.key = 'referral_bonus_amount');
  v_cap int := (app.current_risk_settings()).referral_bonuses_per_month;
  v_paying bigint[];
  v_rows public.transactions[];
begin
  if coalesce(v_bonus, 0) <= 0 then
    return;
  end if;
  update app.referrals r set linked_at = now()
    where r.user_id = any (p_referred) and r.paid_at is null and r.linked_at is null and r.house_result >= v_bonus
      and r.referrer_id in (select l.user_id from app.linked_accounts(r.user_id, interval '90 days') l);
  -- the bonuses due and within the cap: the referred players and their referrers' ledger rows
  select coalesce(array_agg(p.user_id), '{}'),
         coalesce(array_agg(app.ledger_row(p.referrer_id, 'referral_bonus', v_bonus, 'completed', 'REFERRAL-' || p.user_id)), '{}')
    into v_paying, v_rows
    from (select d.user_id, d.referrer_id
          from (select r.user_id, r.referrer_id,
                       row_number() over (partition by r.referrer_id order by r.user_id) as n
                from app.referrals r
                where r.user_id = any (p_referred) and r.paid_at is null and r.linked_at is null
                  and r.house_result >= v_bonus) d
          where d.n + (select count(*) from app.referrals p
                       where p.referrer_id = d.referrer_id and p.paid_at > now() - interval '30 days') <= v_cap) p;
  if cardinality(v_rows) > 0 then
    -- from the bonuses account to each referrer's wallet
    perform app.post_transfers(v_rows);
    update app.referrals r set paid_at = now() where r.user_id = any (v_paying);
  end if;
end;
$$;
comment on function app.pay_referral_bonuses(bigint[]) is
  'Internal: pays the due referral bonuses of these referred players (capped per referrer); callers hold their and their referrers'' locks.';

/** Functions: linked accounts */

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

-- A sign-in of p_user_id with device p_device: a referral between this account and its referrer (either way)
-- whose other account signed in with the same device within 90 days is marked linked (never paid), so the
-- link counts even if the bonus comes due long after. Internal: app.create_session.
create function app.note_referral_links(p_user_id bigint, p_device text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update app.referrals r set linked_at = now()
    where r.paid_at is null and r.linked_at is null and (r.user_id = p_user_id or r.referrer_id = p_user_id)
      and exists (select 1 from app.user_devices d
                  where d.device_id = p_device and d.last_sign_in_at > now() - interval '90 days'
                    and d.user_id = case when r.user_id = p_user_id then r.referrer_id else r.user_id end);
end;
$$;
comment on function app.note_referral_links(bigint, text) is
  'Internal: at a sign-in, marks linked the referrals whose other account used the same device within 90 days.';

/** Functions: balances */

-- The pending withdrawals of a user as a positive sum (0 when none). Runs with the caller's rights: inside
-- the money functions as their owner, in app.user_json under RLS (a player sees only their own rows).
create function app.pending_withdrawals(p_user_id bigint)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select coalesce(-sum(t.amount), 0)::bigint
    from public.transactions t
    where t.user_id = p_user_id and t.type = 'withdrawal' and t.status = 'pending'
  );
end;
$$;
comment on function app.pending_withdrawals(bigint) is
  'Sum of a user''s pending withdrawals (positive). Callable by authenticated (RLS applies) and service_role.';

-- The user's balance available for bets and withdrawals: wallet balance minus pending withdrawals (the one
-- place of "available" is app.pending_withdrawals). A wallet a result correction took below zero has
-- nothing to spend until a deposit brings it back: 409 'Your balance is below zero after a result
-- correction. Recharge to continue.' (the one place of that rule: bets, withdrawals and admin debits all ask
-- here). Callers lock the user row first so the figure cannot change under them.
create function app.available_balance(p_user_id bigint)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
declare
  v_user public.users;
begin
  select * into v_user from public.users u where u.id = p_user_id;
  if v_user.below_zero_since is not null then
    raise exception using errcode = 'BT409', message = 'Your balance is below zero after a result correction. Recharge to continue.';
  end if;
  return v_user.wallet_balance - app.pending_withdrawals(v_user.id);
end;
$$;
comment on function app.available_balance(bigint) is 'Internal: wallet balance minus pending withdrawals.';

/** Functions: deposits */

-- Completes a pending deposit (already locked by the caller): marks it completed and credits the wallet.
create function app.apply_deposit(p_transaction_id bigint, p_gateway_txn_id text)
returns public.transactions
language plpgsql
set search_path = ''
as $$
declare
  v_tx public.transactions;
begin
  select * into v_tx from app.post_transfers(array[app.ledger_decision(p_transaction_id, 'completed', p_gateway_txn_id)]);
  return v_tx;
end;
$$;
comment on function app.apply_deposit(bigint, text) is
  'Internal: completes a locked pending deposit and credits it once.';

-- Creates a pending UPI deposit for the caller (active). 500 <= amount <= 100000; the reference is
-- client-generated 'REF-{digits}-{4 A-Z}'. Once the request is valid, the player-protection checks run
-- (app.assert_may_deposit locks the user row first): no deposit during a time-out or self-exclusion, none
-- above a deposit limit. The same reference from the same user with the same amount returns the existing
-- row while it is still pending (a retried request). Used by anyone else, with another amount, or once its
-- deposit is settled (completed or failed), it is a 409 'Reference already used': a settled reference is not
-- a retry, and returning its row would send the player to the gateway again.
create function app.request_deposit(p_amount bigint, p_payment_method text, p_reference text)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(true);
  v_tx public.transactions;
begin
  if p_amount is null or p_amount < 500 then
    raise exception using errcode = 'BT400', message = 'Minimum deposit amount is ₹500';
  end if;
  if p_amount > 100000 then
    raise exception using errcode = 'BT400', message = 'Maximum deposit amount is ₹100,000';
  end if;
  if p_payment_method is null or btrim(p_payment_method) = '' then
    raise exception using errcode = 'BT400', message = 'Please select a payment method';
  end if;
  if lower(btrim(p_payment_method)) <> 'upi' then
    raise exception using errcode = 'BT400', message = 'Only UPI payments are supported';
  end if;
  if p_reference is null or length(p_reference) > 255 or p_reference !~ '^REF-[0-9]+-[A-Z]{4}$' then
    raise exception using errcode = 'BT400', message = 'Invalid reference';
  end if;
  perform app.assert_may_deposit(v_user.id, p_amount, p_reference);

  -- a pending transfer from the gateway: nothing moves until the gateway (or an admin) posts it
  select * into v_tx from app.post_transfers(array[
    app.ledger_row(v_user.id, 'deposit', p_amount, 'pending', p_reference, p_payment_method => 'upi')]);
  if v_tx.id is null then
    select * into v_tx from public.transactions where type = 'deposit' and reference_id = p_reference;
    -- only a retry of the same, still pending request gets the row back
    if v_tx.user_id <> v_user.id or v_tx.amount <> p_amount or v_tx.status <> 'pending' then
      raise exception using errcode = 'BT409', message = 'Reference already used';
    end if;
  end if;
  return v_tx;
end;
$$;
comment on function app.request_deposit(bigint, text, text) is
  'Creates (or returns, for a retried pending reference) the caller''s pending UPI deposit. Caller: API as the player.';

-- The payment gateway's confirmation (signed webhook; the API verifies the signature). No claims.
-- 'success' completes and credits the stored amount once; 'failed' marks the deposit failed. Unknown
-- reference 404; amount differing from the stored one 409; a replay of the event already applied returns the
-- row unchanged; a conflicting event on a settled deposit is a 409 'Transaction already settled', except:
--   * a 'success' for a deposit we failed — an admin rejected it (audit 'transaction.reject'), the
--     stale-deposit job expired it after 24 hours without an answer (audit 'deposit.expired'), or its
--     player's self-exclusion failed it (audit 'deposit.failed_by_exclusion') — the money arrived, so it is
--     completed and credited as if it were pending, with an audit row 'deposit.paid_after_rejection'
--     (admin_id null; before = the failure: its audit id and action, the admin (none but for a rejection)
--     and time; after = gateway id, amount, status). Once completed, a replay with the same gateway id
--     moves nothing and another gateway id is a 409 like for any completed deposit.
--   * unless an earlier rule recorded that payment without crediting it (audit row
--     'deposit_paid_after_rejection'): the admins were told to credit it by adjustment and may have done so,
--     so it is answered as then, 200 with no change.
-- A gateway id stored on another deposit is a 409 'Duplicate gateway transaction', also when a concurrent
-- webhook for another deposit stores it first (the unique violation is caught: a 409, not a 500).
create function app.complete_deposit(p_reference text, p_amount bigint, p_status text, p_gateway_txn_id text)
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
        where a.action in ('transaction.reject', 'deposit.expired', 'deposit.failed_by_exclusion')
          and a.target_type = 'transaction' and a.target_id = v_tx.id
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
    select * into v_tx from app.post_transfers(array[app.ledger_decision(v_tx.id, 'failed', v_gateway)]);
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

/** Functions: stale deposits */

-- A deposit the payment gateway never answered does not stay pending for ever: a player who closes the
-- gateway page, or a gateway that loses the payment, would leave it cluttering the player's wallet and the
-- admins' queue. Marks failed every pending deposit created more than p_window before p_now (the gateway
-- never answered: an answer would have completed or failed it), each with an audit row 'deposit.expired'
-- (admin_id null; before: pending and its creation time; after: failed and the window). Moves no money: a
-- pending deposit was never credited. Returns how many it failed. A webhook or an admin deciding the same
-- deposit at the same moment holds its row lock: the update waits for it and then skips a deposit that is
-- no longer pending. p_now is a parameter for the tests. A late success still credits it
-- (app.complete_deposit).
-- Caller: the scheduler (pg_cron as the owner, the local runtime's timer as service_role), no claims.
create function app.fail_stale_deposits(
  p_window interval default interval '24 hours', p_now timestamptz default now()
)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_failed integer;
begin
  if p_window is null or p_window <= interval '0' or p_now is null then
    raise exception using errcode = 'BT400', message = 'Invalid window';
  end if;
  with expired as (
    select v.id, v.created_at
    from app.post_transfers(array(
      select app.ledger_decision(t.id, 'failed')
      from public.transactions t
      where t.type = 'deposit' and t.status = 'pending' and t.created_at < p_now - p_window
      for update)) v
  ), audited as (
    insert into public.audit_log (admin_id, action, target_type, target_id, before, after)
    select null, 'deposit.expired', 'transaction', e.id,
           jsonb_build_object('status', 'pending', 'created_at', e.created_at),
           jsonb_build_object('status', 'failed', 'no_answer_for', p_window::text)
      from expired e
    returning 1
  )
  select count(*) into v_failed from audited;
  return v_failed;
end;
$$;
comment on function app.fail_stale_deposits(interval, timestamptz) is
  'Fails pending deposits older than the window (default 24 hours) with an audit row; moves no money. Caller: pg_cron or the local runtime''s timer (service_role).';

/** Functions: bank accounts and withdrawals */

-- Saves a bank account for the caller (owner = caller; any user_id in the request is ignored by the API).
-- Suspended users may still add accounts; banned users cannot act at all. IFSC is upper-cased. A bank account
-- (compared by app.bank_account_key) belongs to one account: app.refuse_held_bank_account refuses one the
-- caller or another account holds. Two accounts adding the same one at once: the unique index lets one in
-- and the other, once the first has committed, gets the same refusal.
create function app.add_bank_account(
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

-- Creates a pending withdrawal (amount stored as -X) to one of the caller's own active bank accounts.
-- Rules: caller active; 500 <= X <= 50000; available balance >= X; at least one completed deposit of
-- 1000 or more ever. Nothing is debited yet: approval debits (re-checked), rejection moves nothing.
create function app.request_withdrawal(p_amount bigint, p_bank_account_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(true);
  v_account public.bank_accounts;
  v_tx public.transactions;
begin
  if p_amount is null or p_amount < 500 then
    raise exception using errcode = 'BT400', message = 'Minimum withdrawal amount is ₹500';
  end if;
  if p_amount > 50000 then
    raise exception using errcode = 'BT400', message = 'Maximum withdrawal amount is ₹50,000';
  end if;
  if p_bank_account_id is null or p_bank_account_id < 1 then
    raise exception using errcode = 'BT400', message = 'Please select a bank account';
  end if;
  select * into v_account from public.bank_accounts where id = p_bank_account_id;
  if not found then
    raise exception using errcode = 'BT404', message = 'Bank account not found';
  end if;
  if v_account.user_id <> v_user.id then
    raise exception using errcode = 'BT403', message = 'You can only withdraw to your own bank account';
  end if;
  if not v_account.is_active then
    raise exception using errcode = 'BT409', message = 'Bank account is inactive';
  end if;

  -- serialize with bets, approvals and other withdrawals of this user
  perform 1 from public.users where id = v_user.id for update;
  if app.available_balance(v_user.id) < p_amount then
    raise exception using errcode = 'BT409', message = 'Insufficient balance';
  end if;
  if not exists (
    select 1 from public.transactions
    where user_id = v_user.id and type = 'deposit' and status = 'completed' and amount >= 1000
  ) then
    raise exception using errcode = 'BT409',
      message = 'Minimum deposit required: You need to have made at least one deposit of ₹1,000 or more to withdraw funds';
  end if;

  -- a pending transfer holding the amount (the available balance leaves it out) until an admin pays it
  select * into v_tx from app.post_transfers(array[
    app.ledger_row(v_user.id, 'withdrawal', -p_amount, 'pending', p_bank_account_id => v_account.id)]);
  return v_tx;
end;
$$;
comment on function app.request_withdrawal(bigint, bigint) is
  'Creates the caller''s pending withdrawal after the balance and deposit checks. Caller: API as the player.';

/** Function privileges */

-- Functions get EXECUTE for PUBLIC by default: take it away, then grant per function.
revoke execute on function
  app.bank_account_json(public.bank_accounts),
  app.linked_accounts(bigint, interval),
  app.note_referral_links(bigint, text),
  app.bank_account_key(text, text),
  app.refuse_held_bank_account(bigint, text),
  app.pending_withdrawals(bigint),
  app.available_balance(bigint),
  app.pay_referral_bonuses(bigint[]),
  app.apply_deposit(bigint, text),
  app.request_deposit(bigint, text, text),
  app.complete_deposit(text, bigint, text, text),
  app.fail_stale_deposits(interval, timestamptz),
  app.add_bank_account(text, text, text, text),
  app.request_withdrawal(bigint, bigint)
  from public, anon, authenticated, service_role;
-- Evaluated in app.user_json under RLS.
grant execute on function app.pending_withdrawals(bigint) to authenticated, service_role;
-- The bank account answer, evaluated under RLS.
grant execute on function app.bank_account_json(public.bank_accounts) to authenticated, service_role;
grant execute on function
  app.request_deposit(bigint, text, text),
  app.complete_deposit(text, bigint, text, text),
  app.fail_stale_deposits(interval, timestamptz),
  app.add_bank_account(text, text, text, text),
  app.request_withdrawal(bigint, bigint)
  to service_role;

/** Schedule */

-- Stale deposits are failed every 5 minutes by pg_cron where the extension is enabled (hosted Supabase:
-- Database → Extensions → pg_cron, before `supabase db push`); elsewhere (vanilla PostgreSQL, the embedded
-- server) the local runtime (scripts/start.js) calls the same function on a timer. cron.schedule with a job
-- name replaces a job of the same name, so running this again changes nothing. Enabled later? Run the same
-- cron.schedule call once (README.md, "Deploying to Supabase").
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    perform cron.schedule('fail-stale-deposits', '*/5 * * * *', 'select app.fail_stale_deposits()');
  end if;
end
$$;
