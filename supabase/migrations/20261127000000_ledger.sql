-- The books, first part: double entry and one posting function. Every movement of money becomes one call of
-- app.post_transfers, which writes transfers between accounts (each player's wallet and the house's own
-- accounts) and is the only writer of balances and ledger rows. A player's ledger row is a transfer between
-- their wallet and the house account its type names; transfers between two house accounts are rows of
-- app.house_transfers; app.account_days keeps what went in and out of each house account per IST day.
--
-- This migration creates the chart of accounts, the posting function and the wider reconciliation, and moves
-- deposits (requested, credited, failed, expired, failed by a self-exclusion), withdrawal requests and admin
-- adjustments onto the posting function. No row of the ledger changes.

/** Constraints: what the posting function now guards */

-- A wallet may go below zero through a correction's reversal only. The posting function, the one writer of
-- balances, refuses every other way there and marks a balance below zero with the time it went there; a
-- CHECK cannot tell who lowers a balance, but it can refuse one below zero without the mark.
alter table public.users add column below_zero_since timestamptz;
comment on column public.users.below_zero_since is
  'When a correction took the balance below zero (null unless it is below zero); set by app.post_transfers.';
alter table public.users
  drop constraint users_wallet_balance_check,
  add constraint users_balance_below_zero check (wallet_balance >= 0 or below_zero_since is not null);
-- the Below zero tab of the admin users list: the few players a correction left below zero (the balance
-- itself stays out of every index, so a credit remains a HOT update)
create index users_below_zero_idx on public.users (id) where below_zero_since is not null;

-- A corrected settlement takes back a bet's earlier payout or refund with a row of its own.
alter table public.transactions
  drop constraint transactions_type_check,
  add constraint transactions_type_check check (type in (
    'deposit', 'withdrawal', 'bet_placed', 'bet_won', 'bet_lost', 'bet_refund', 'referral_bonus', 'admin_adjustment',
    'settlement_reversal'
  )),
  drop constraint transactions_amount_sign,
  add constraint transactions_amount_sign check (
    (type in ('deposit', 'bet_won', 'bet_refund', 'referral_bonus') and amount > 0)
    or (type in ('withdrawal', 'bet_placed', 'settlement_reversal') and amount < 0)
    or (type = 'bet_lost' and amount = 0)
    or (type = 'admin_adjustment' and amount <> 0)
  );

/** Tables: the chart of accounts */

create table app.accounts (
  code text primary key,
  name text not null,
  description text not null
);
comment on table app.accounts is 'The chart of accounts: each player''s wallet and the house''s own accounts.';
revoke all on app.accounts from public, anon, authenticated, service_role;

insert into app.accounts (code, name, description) values
  ('wallet', 'Player wallets',
   'What each player holds (public.users.wallet_balance): one account per player.'),
  ('gateway_clearing', 'Gateway and bank',
   'Deposits come from it, paid withdrawals go back to it: its balance is minus the players'' money held in our bank and gateway accounts.'),
  ('stakes_held', 'Stakes held',
   'The stakes of open bets: a bet puts its stake here; settling or refunding the bet takes it out.'),
  ('house_result', 'House result',
   'What the house has won on bets: settled stakes come in, payouts go out; corrections move both ways.'),
  ('bonuses', 'Referral bonuses', 'Referral bonuses are paid out of it.'),
  ('adjustments', 'Admin adjustments', 'Admin credits are paid out of it; admin debits come back to it.'),
  ('withdrawals_payable', 'Withdrawals payable',
   'A paid withdrawal passes through it from the wallet to the bank; its pending transfers are the withdrawals awaiting an admin.');

-- Which house account a player's ledger row moves against, by the row's type. A reference prefix makes the
-- reference of the types whose event is the row itself (WD-{id}, ADJ-{id}).
create table app.ledger_types (
  type text primary key,
  account text not null references app.accounts (code) check (account <> 'wallet'),
  reference_prefix text,
  description text not null
);
comment on table app.ledger_types is 'Each ledger type and the house account on the other side of the player''s wallet.';
-- foreign key
create index ledger_types_account_idx on app.ledger_types (account);
revoke all on app.ledger_types from public, anon, authenticated, service_role;

insert into app.ledger_types (type, account, reference_prefix, description) values
  ('deposit', 'gateway_clearing', null, 'A deposit credited: from the gateway to the wallet.'),
  ('withdrawal', 'withdrawals_payable', 'WD-', 'A withdrawal: from the wallet, on its way to the bank.'),
  ('bet_placed', 'stakes_held', null, 'A stake taken: from the wallet to the stakes held.'),
  ('bet_won', 'house_result', null, 'A win paid: from the house''s result to the wallet.'),
  ('bet_lost', 'house_result', null, 'A lost bet (zero rows written before settlement became a job; history only).'),
  ('bet_refund', 'stakes_held', null, 'A stake refunded: from the stakes held back to the wallet.'),
  ('referral_bonus', 'bonuses', null, 'A referral bonus: from the bonuses to the wallet.'),
  ('admin_adjustment', 'adjustments', 'ADJ-', 'An admin credit (into the wallet) or debit (out of it).'),
  ('settlement_reversal', 'house_result', null,
   'A correction taking back a bet''s earlier payout or refund: from the wallet to the house''s result.');

/** Tables: transfers between house accounts, day totals */

-- Transfers between two house accounts: the stakes of a settlement batch's bets going to the house's result
-- (stakes_settled) or, in a correction, back to the stakes held (stakes_reopened); a paid withdrawal going
-- from withdrawals_payable to the bank (withdrawal_paid). booked_at is when the books count it: for a
-- settlement, when its outcome was fixed, whenever its batches run.
create table app.house_transfers (
  id bigint generated always as identity primary key,
  from_account text not null references app.accounts (code),
  to_account text not null references app.accounts (code),
  amount bigint not null check (amount > 0),
  kind text not null check (kind in ('stakes_settled', 'stakes_reopened', 'withdrawal_paid')),
  match_id bigint references public.matches (id) on delete restrict,
  transaction_id bigint references public.transactions (id) on delete restrict,
  booked_at timestamptz not null,
  created_at timestamptz not null default now(),
  constraint house_transfers_between_house_accounts
    check (from_account <> to_account and from_account <> 'wallet' and to_account <> 'wallet'),
  constraint house_transfers_shape check (
    (kind in ('stakes_settled', 'stakes_reopened') and match_id is not null and transaction_id is null)
    or (kind = 'withdrawal_paid' and transaction_id is not null and match_id is null)
  )
);
comment on table app.house_transfers is 'Transfers between two house accounts (settled stakes, paid withdrawals).';
-- foreign keys
create index house_transfers_from_account_idx on app.house_transfers (from_account);
create index house_transfers_to_account_idx on app.house_transfers (to_account);
create index house_transfers_match_id_idx on app.house_transfers (match_id) where match_id is not null;
-- foreign key; a withdrawal is paid once
create unique index house_transfers_withdrawal_key on app.house_transfers (transaction_id) where transaction_id is not null;
revoke all on app.house_transfers from public, anon, authenticated, service_role;

-- What went into and out of each house account per IST day (the books' days), but stakes_held (a stake taken
-- or refunded is not in the books, and a row of totals written by every bet would make each bet wait for
-- the one before). Kept by app.post_transfers in the statement that moves the money, in 8 stripes (by
-- backend) so that concurrent postings rarely wait for one another's row.
create table app.account_days (
  account text not null references app.accounts (code) check (account not in ('wallet', 'stakes_held')),
  day date not null,
  stripe smallint not null check (stripe between 0 and 7),
  amount_in bigint not null check (amount_in >= 0),
  amount_out bigint not null check (amount_out >= 0),
  constraint account_days_pkey primary key (account, day, stripe)
);
comment on table app.account_days is
  'Money into and out of each house account (but stakes_held) per IST day, in stripes; kept by app.post_transfers.';
revoke all on app.account_days from public, anon, authenticated, service_role;

/** Views */

-- Every transfer seen from each account it moves: a ledger row from the wallet's side and from its house
-- account's, a house transfer from both house accounts. A transfer is one ledger row (transaction_id) or one
-- house transfer (house_transfer_id); its entries sum to zero. For reconciliation and audits, not for lists.
create view app.entries as
  select 'wallet'::text as account, t.user_id, t.id as transaction_id, null::bigint as house_transfer_id,
         t.amount, t.type as kind, t.created_at
  from public.transactions t
  where t.status = 'completed'
  union all
  select l.account, null, t.id, null, -t.amount, t.type, t.created_at
  from public.transactions t
  join app.ledger_types l on l.type = t.type
  where t.status = 'completed'
  union all
  select h.from_account, null, null, h.id, -h.amount, h.kind, h.booked_at
  from app.house_transfers h
  union all
  select h.to_account, null, null, h.id, h.amount, h.kind, h.booked_at
  from app.house_transfers h;
comment on view app.entries is 'Every completed transfer from each side: account, amount (+ in, - out). Audits only.';
revoke all on app.entries from public, anon, authenticated, service_role;

/** Functions: posting */

-- A new ledger row to post (app.post_transfers): the player's wallet, its type (which names the house
-- account on the other side), the signed amount (positive: into the wallet), 'completed' (the money moves)
-- or 'pending' (held until decided), and the event's reference (null: made from the row's id where the
-- type has a prefix); the other fields as the type needs them.
create function app.ledger_row(
  p_user_id bigint, p_type text, p_amount bigint, p_status text default 'completed', p_reference_id text default null,
  p_payment_method text default null, p_bank_account_id bigint default null, p_notes text default null,
  p_requested_by bigint default null
)
returns public.transactions
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_row public.transactions;
begin
  v_row.user_id := p_user_id;
  v_row.type := p_type;
  v_row.amount := p_amount;
  v_row.status := p_status;
  v_row.reference_id := p_reference_id;
  v_row.payment_method := p_payment_method;
  v_row.bank_account_id := p_bank_account_id;
  v_row.notes := p_notes;
  v_row.requested_by := p_requested_by;
  return v_row;
end;
$$;
comment on function app.ledger_row(bigint, text, bigint, text, text, text, bigint, text, bigint) is
  'Internal: a new ledger row for app.post_transfers.';

-- The decision of a pending ledger row for app.post_transfers: 'completed' posts it, 'failed' voids it; a
-- gateway transaction id to store with it.
create function app.ledger_decision(p_id bigint, p_status text, p_gateway_txn_id text default null)
returns public.transactions
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_row public.transactions;
begin
  v_row.id := p_id;
  v_row.status := p_status;
  v_row.gateway_txn_id := p_gateway_txn_id;
  return v_row;
end;
$$;
comment on function app.ledger_decision(bigint, text, text) is
  'Internal: the decision (post or void) of a pending ledger row for app.post_transfers.';

-- The one posting function. Writes in one statement the transfers given and moves the balances they move:
--   * p_rows, players' ledger rows: a new row (id null) is written as given — 'completed' moves the money,
--     'pending' holds it (nothing moves) — and its reference, when null, is made from its id where its type
--     has a prefix (WD-{id}, ADJ-{id}). A row whose (type, reference) exists already is skipped and moves
--     nothing: posting an event twice is harmless. A row with an id decides that pending transfer:
--     'completed' posts it (the amount stored moves; a failed deposit may still be posted: the gateway's
--     success for a rejected deposit), 'failed' voids a pending one; a gateway transaction id given is
--     stored. Decided rows keep everything else as stored.
--   * p_house, transfers between two house accounts (from, to, amount, kind, match or transaction).
--   * p_booked_at: when the books count this (the IST day of the day totals and of the house transfers).
-- Each wallet moves once, by the sum of its rows, locked first in id order (the lock order of every money
-- path; callers that decided on a balance hold the lock already). A wallet may not end a posting below zero
-- when the posting lowers it, unless the posting reverses one of its settled bets (a correction): 409
-- 'Insufficient balance' (callers check first; this is the last guard). A wallet below zero carries the
-- time it went there (users.below_zero_since), cleared once it is back at zero or above. The house accounts'
-- day totals are kept in the same statement. Answers the ledger rows written or decided.
-- Internal: called by every function that moves money, under the locks its rules need.
create function app.post_transfers(
  p_rows public.transactions[],
  p_house app.house_transfers[] default '{}',
  p_booked_at timestamptz default now()
)
returns setof public.transactions
language plpgsql
set search_path = ''
as $$
declare
  v_day date := (p_booked_at at time zone 'Asia/Kolkata')::date;
  v_stripe smallint := pg_backend_pid() % 8;
  v_written public.transactions[];
  v_overdrawn bigint;
begin
  perform 1 from public.users u
    where u.id in (select r.user_id from unnest(p_rows) r where r.id is null and r.status = 'completed'
                   union all
                   select t.user_id from public.transactions t
                   where t.id in (select r.id from unnest(p_rows) r where r.status = 'completed'))
    order by u.id
    for no key update;

  with input as (
    select r.* from unnest(p_rows) r
  ),
  added as (
    insert into public.transactions as t (id, user_id, amount, type, status, reference_id, notes, payment_method,
                                          bank_account_id, gateway_txn_id, requested_by)
    overriding system value
    select n.id, n.user_id, n.amount, n.type, n.status, coalesce(n.reference_id, l.reference_prefix || n.id),
           n.notes, n.payment_method, n.bank_account_id, n.gateway_txn_id, n.requested_by
    from (select nextval('public.transactions_id_seq'::regclass) as id, i.user_id, i.amount, i.type, i.status,
                 i.reference_id, i.notes, i.payment_method, i.bank_account_id, i.gateway_txn_id, i.requested_by
          from input i
          where i.id is null) n
    left join app.ledger_types l on l.type = n.type
    on conflict (type, reference_id) where reference_id is not null do nothing
    returning t.*
  ),
  decided as (
    update public.transactions t
      set status = i.status, gateway_txn_id = coalesce(i.gateway_txn_id, t.gateway_txn_id), updated_at = now()
      from input i
      where i.id is not null and t.id = i.id
        and ((i.status = 'completed' and t.status <> 'completed') or (i.status = 'failed' and t.status = 'pending'))
      returning t.*
  ),
  moved as (
    select a.user_id, a.amount, a.type from added a where a.status = 'completed'
    union all
    select d.user_id, d.amount, d.type from decided d where d.status = 'completed'
  ),
  wallets as (
    update public.users u
      set wallet_balance = u.wallet_balance + m.total,
          below_zero_since = case when u.wallet_balance + m.total < 0 then coalesce(u.below_zero_since, now()) end
      from (select m.user_id, sum(m.amount) as total, bool_or(m.type = 'settlement_reversal') as reversal
            from moved m group by m.user_id) m
      where u.id = m.user_id
      returning u.wallet_balance, m.total, m.reversal
  ),
  house as (
    insert into app.house_transfers (from_account, to_account, amount, kind, match_id, transaction_id, booked_at)
    select h.from_account, h.to_account, h.amount, h.kind, h.match_id, h.transaction_id, p_booked_at
    from unnest(p_house) h
    returning from_account, to_account, amount
  ),
  flows as (
    select l.account, greatest(-m.amount, 0) as amount_in, greatest(m.amount, 0) as amount_out
    from moved m join app.ledger_types l on l.type = m.type
    union all
    select h.from_account, 0, h.amount from house h
    union all
    select h.to_account, h.amount, 0 from house h
  ),
  days as (
    insert into app.account_days as d (account, day, stripe, amount_in, amount_out)
    select f.account, v_day, v_stripe, sum(f.amount_in), sum(f.amount_out)
    from flows f
    where f.account <> 'stakes_held'
    group by f.account
    order by f.account
    on conflict (account, day, stripe) do update
      set amount_in = d.amount_in + excluded.amount_in, amount_out = d.amount_out + excluded.amount_out
  )
  select (select count(*) from wallets w where w.wallet_balance < 0 and w.total < 0 and not w.reversal),
         array(select a::public.transactions from added a union all select d::public.transactions from decided d)
    into v_overdrawn, v_written;

  if v_overdrawn > 0 then
    raise exception using errcode = 'BT409', message = 'Insufficient balance';
  end if;
  return query select * from unnest(v_written);
end;
$$;
comment on function app.post_transfers(public.transactions[], app.house_transfers[], timestamptz) is
  'The one posting function: writes ledger rows and house transfers and moves the balances, in one statement. Internal: the money functions.';

/** Functions: reconciliation */

drop function app.reconcile();

-- Every way the books can be wrong, one row each (must be none): a wallet whose balance differs from its
-- entries; a transfer whose entries do not sum to zero; a player marked below zero who is not (a balance
-- below zero without the mark is refused by users_balance_below_zero). Read-only; for monitoring and tests.
create function app.reconcile()
returns table (problem text, subject text, expected bigint, actual bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select 'wallet differs from its entries', 'user ' || u.id, coalesce(l.total, 0)::bigint, u.wallet_balance
  from public.users u
  left join (
    select t.user_id, sum(t.amount) as total
    from public.transactions t
    where t.status = 'completed'
    group by t.user_id
  ) l on l.user_id = u.id
  where u.wallet_balance <> coalesce(l.total, 0);

  return query
  select 'transfer does not balance',
         coalesce('transaction ' || e.transaction_id, 'house transfer ' || e.house_transfer_id),
         0::bigint, sum(e.amount)::bigint
  from app.entries e
  group by e.transaction_id, e.house_transfer_id
  having sum(e.amount) <> 0 or count(*) <> 2;

  return query
  select 'marked below zero but is not', 'user ' || u.id, 0::bigint, u.wallet_balance
  from public.users u
  where u.below_zero_since is not null and u.wallet_balance >= 0;
end;
$$;
comment on function app.reconcile() is 'Every way the books are wrong, one row each (must be none). Caller: service_role.';

/** Functions: the user's answer leaves out the below-zero mark */

-- A user as the API answers it: the row (without the password, which lives in app.credentials) plus what
-- the player may spend now (available_balance) and what waits for approval (pending_withdrawals, see the
-- wallet). Built from the row given (a business function's fresh result included), not re-read.
create or replace function app.user_json(p_user public.users)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select (to_jsonb(p_user) - 'below_zero_since') || jsonb_build_object(
      'available_balance', p_user.wallet_balance - w.pending,
      'pending_withdrawals', w.pending)
    from (select app.pending_withdrawals(p_user.id) as pending) w
  );
end;
$$;
comment on function app.user_json(public.users) is
  'The API''s user answer: the row plus available_balance and pending_withdrawals. Callable by authenticated, service_role.';

/** Functions: the money paths on the posting function */

-- Completes a pending deposit (already locked by the caller): marks it completed and credits the wallet. The
-- user's first completed deposit sets the stakes their referrer's bonus waits for (normally paid later, by
-- settlement; at once only if enough was already staked, e.g. with an admin's credit).
create or replace function app.apply_deposit(p_transaction_id bigint, p_gateway_txn_id text)
returns public.transactions
language plpgsql
set search_path = ''
as $$
declare
  v_tx public.transactions;
  v_referral app.referrals;
begin
  select * into v_tx from public.transactions where id = p_transaction_id;
  -- a referred player's first completed deposit: their referrer may be paid now
  select * into v_referral from app.referrals
    where user_id = v_tx.user_id and paid_at is null and first_deposit is null;

  -- lock the wallets this may touch, lowest id first
  perform 1 from public.users where id in (v_tx.user_id, v_referral.referrer_id) order by id for update;

  select * into v_tx from app.post_transfers(array[app.ledger_decision(v_tx.id, 'completed', p_gateway_txn_id)]);

  if v_referral.user_id is not null then
    update app.referrals set first_deposit = v_tx.amount where user_id = v_tx.user_id;
    perform app.pay_referral_bonuses(array[v_tx.user_id]);
  end if;
  return v_tx;
end;
$$;
comment on function app.apply_deposit(bigint, text) is
  'Internal: completes a locked pending deposit, credits it once and pays a first-deposit referral bonus.';

-- Creates a pending UPI deposit for the caller (active). 500 <= amount <= 100000; the reference is
-- client-generated 'REF-{digits}-{4 A-Z}'. Once the request is valid, the player-protection checks run
-- (app.assert_may_deposit locks the user row first): no deposit during a time-out or self-exclusion, none
-- above a deposit limit. The same reference from the same user with the same amount returns the existing
-- row while it is still pending (a retried request). Used by anyone else, with another amount, or once its
-- deposit is settled (completed or failed), it is a 409 'Reference already used': a settled reference is not
-- a retry, and returning its row would send the player to the gateway again.
create or replace function app.request_deposit(p_amount bigint, p_payment_method text, p_reference text)
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
create or replace function app.fail_stale_deposits(
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

-- Creates a pending withdrawal (amount stored as -X) to one of the caller's own active bank accounts.
-- Rules: caller active; 500 <= X <= 50000; available balance >= X; at least one completed deposit of
-- 1000 or more ever. Nothing is debited yet: approval debits (re-checked), rejection moves nothing.
create or replace function app.request_withdrawal(p_amount bigint, p_bank_account_id bigint)
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

-- An admin's wallet adjustment (signed; |amount| 1–100000; notes required, at most 200 characters; never
-- the admin's own wallet; a debit may not take the available balance below zero). A credit counts towards
-- the admin's admin_credit_per_day over the last 24 hours, pending credits included (409 'Daily credit
-- limit reached'); credits of the same admin are serialized by an advisory lock taken first, so two cannot
-- pass the cap together. A credit of at least adjustment_review_amount is written pending (balance
-- untouched) for another admin to approve or reject; anything else moves money at once. Audited either way.
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
  v_credited bigint;
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
    perform pg_advisory_xact_lock(hashtextextended('admin-credit:' || v_admin.id, 0));
    select coalesce(sum(t.amount), 0) into v_credited
      from public.transactions t
      where t.requested_by = v_admin.id and t.created_at > now() - interval '24 hours'
        and t.amount > 0 and t.status <> 'failed';
    if v_credited + p_amount > v_settings.admin_credit_per_day then
      raise exception using errcode = 'BT409', message = 'Daily credit limit reached';
    end if;
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

-- Starts a time-out or self-exclusion of p_user (locked by the caller) at p_now until p_ends_at; a request
-- ending no later than the one running is a 409. A self-exclusion also fails the player's pending deposits
-- (audit 'deposit.failed_by_exclusion', no admin): nobody may complete them for the player now, yet a payment
-- that still arrives is credited (app.complete_deposit) and can be withdrawn. A deposit that a webhook or an
-- admin is completing at this very moment (its row locked) is skipped: it completes, or the approval sees
-- the exclusion and refuses.
create or replace function app.start_exclusion(p_user public.users, p_kind text, p_ends_at timestamptz, p_now timestamptz)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_running public.protection_changes;
begin
  select * into v_running from app.active_exclusion(p_user.id, p_now);
  if found and v_running.ends_at >= p_ends_at then
    raise exception using errcode = 'BT409', message = format('Already excluded: Your %s runs until %s.',
      case v_running.kind when 'timeout' then 'time-out' else 'self-exclusion' end, app.format_ist(v_running.ends_at));
  end if;
  insert into public.protection_changes (user_id, changed_by, kind, requested_at, effective_at, ends_at)
  values (p_user.id, p_user.id, p_kind, p_now, p_now, p_ends_at);

  if p_kind = 'self_exclusion' then
    insert into public.audit_log (admin_id, action, target_type, target_id, before, after)
    select null, 'deposit.failed_by_exclusion', 'transaction', f.id,
           jsonb_build_object('status', 'pending'), jsonb_build_object('status', 'failed', 'amount', f.amount)
    from app.post_transfers(array(
      select app.ledger_decision(t.id, 'failed')
      from public.transactions t
      where t.user_id = p_user.id and t.type = 'deposit' and t.status = 'pending'
      for update skip locked)) f;
  end if;
  return app.protection_json(p_user.id, p_now);
end;
$$;
comment on function app.start_exclusion(public.users, text, timestamptz, timestamptz) is
  'Internal: records a time-out or self-exclusion for a locked player unless one running ends later.';

/** Function privileges */

revoke execute on function
  app.ledger_row(bigint, text, bigint, text, text, text, bigint, text, bigint),
  app.ledger_decision(bigint, text, text),
  app.post_transfers(public.transactions[], app.house_transfers[], timestamptz),
  app.reconcile()
  from public, anon, authenticated, service_role;
grant execute on function app.reconcile() to service_role;
