-- The books: double entry. Every movement of money is one call of app.post_transfers, which writes transfers
-- between accounts — each player's wallet and the house's own accounts — and nothing else writes a balance or
-- a ledger row. What leaves one account arrives in another, so the accounts always sum to zero: the players'
-- money is what came in through the gateway, less what went out, plus what the house lost to them.
--
-- How a transfer is stored:
--   * A player's ledger row (public.transactions) is a transfer between their wallet and one house account,
--     the one its type names (app.ledger_types); its signed amount says which way (positive: into the
--     wallet). One row names both sides, so no transfer is ever half written: app.entries shows each row
--     from both sides. The players' ledger is their wallets' side of the transfers, not a copy beside them.
--   * A transfer between two house accounts (a batch's settled stakes going to the house's result, a paid
--     withdrawal going out to the bank) is a row of app.house_transfers.
--   * Pending transfers (a deposit or a withdrawal requested, an admin credit awaiting a second admin) are
--     ledger rows with status 'pending': written, but no balance moves. Posting one moves the money
--     ('completed'); voiding it moves nothing ('failed'). Like TigerBeetle's two-phase transfers.
--
-- Balances: a wallet's is users.wallet_balance, moved in the same statement as its rows. The house's
-- accounts have no balance row (stakes_held moves with every bet: one row would make each bet wait for the
-- one before); app.account_days keeps what went in and out of each of them per IST day, in stripes, which
-- the books read. stakes_held has no day totals either: its balance is the stakes of the open bets. The
-- books' lines per match (app.match_lines) are kept by settlement, batch by batch, beside its postings.
--
-- app.reconcile() lists every way the books can be wrong; it is empty after every test and after the bench.

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
-- the books of a range of days
create index account_days_day_idx on app.account_days (day);
revoke all on app.account_days from public, anon, authenticated, service_role;

-- The books' lines per match: one for its settlement and one for each correction, booked at the moment its
-- outcome was fixed (the declaration, or the correction's approval), whenever its batches run. Each batch
-- adds its bets to its line (app.book_match_line) in the transaction that posts their money, so a line is
-- complete when its run is. stakes, paid and refunded are what the line moved: a settlement's are the
-- stakes of its bets, the payouts and the refunds; a correction's are the differences it made (paid and
-- refunded below zero where it took money back). Its house result is stakes - paid - refunded, and the
-- lines of an IST day add up to the house_result account's day total (app.reconcile checks it).
create table app.match_lines (
  match_id bigint not null references public.matches (id) on delete restrict,
  booked_at timestamptz not null,
  bets int not null check (bets >= 0),
  stakes bigint not null,
  paid bigint not null,
  refunded bigint not null,
  constraint match_lines_pkey primary key (match_id, booked_at)
);
comment on table app.match_lines is
  'The books'' lines per match (its settlement, each correction): bets, stakes, paid, refunded; kept by settlement.';
-- the books of a range of days
create index match_lines_booked_at_idx on app.match_lines (booked_at);
revoke all on app.match_lines from public, anon, authenticated, service_role;

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

-- A transfer between two house accounts to post (app.post_transfers): from, to, amount, kind, and the match
-- (settled or reopened stakes) or the ledger row (a paid withdrawal) it belongs to.
create function app.house_transfer(
  p_from text, p_to text, p_amount bigint, p_kind text, p_match_id bigint default null, p_transaction_id bigint default null
)
returns app.house_transfers
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_row app.house_transfers;
begin
  v_row.from_account := p_from;
  v_row.to_account := p_to;
  v_row.amount := p_amount;
  v_row.kind := p_kind;
  v_row.match_id := p_match_id;
  v_row.transaction_id := p_transaction_id;
  return v_row;
end;
$$;
comment on function app.house_transfer(text, text, bigint, text, bigint, bigint) is
  'Internal: a new transfer between two house accounts for app.post_transfers.';

-- The one posting function. Writes the transfers given and moves the balances they move, in one statement
-- (one new completed ledger row without house transfers, such as a bet's stake, in a few of its own that
-- touch its wallet only):
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
  v_row public.transactions;
  v_balance bigint;
begin
  -- One new completed ledger row and no house transfer (a bet's stake, a bonus, a deposit credited): the
  -- same writes and the same guard in statements of its own, which touch that row's wallet only. The
  -- statement below carries every case (decisions, house transfers, many wallets), whose empty branches cost
  -- such a posting more than the row it writes.
  if cardinality(p_rows) = 1 and cardinality(p_house) = 0 and (p_rows[1]).id is null
     and (p_rows[1]).status = 'completed' then
    v_row := p_rows[1];
    perform 1 from public.users u where u.id = v_row.user_id for no key update;
    v_row.id := nextval('public.transactions_id_seq'::regclass);
    insert into public.transactions as t (id, user_id, amount, type, status, reference_id, notes, payment_method,
                                          bank_account_id, gateway_txn_id, requested_by)
    overriding system value
    select v_row.id, v_row.user_id, v_row.amount, v_row.type, v_row.status,
           coalesce(v_row.reference_id, (select l.reference_prefix from app.ledger_types l where l.type = v_row.type) || v_row.id),
           v_row.notes, v_row.payment_method, v_row.bank_account_id, v_row.gateway_txn_id, v_row.requested_by
    on conflict (type, reference_id) where reference_id is not null do nothing
    returning t.* into v_row;
    if not found then
      return;
    end if;
    update public.users u
      set wallet_balance = u.wallet_balance + v_row.amount,
          below_zero_since = case when u.wallet_balance + v_row.amount < 0 then coalesce(u.below_zero_since, now()) end
      where u.id = v_row.user_id
      returning u.wallet_balance into v_balance;
    if v_balance < 0 and v_row.amount < 0 and v_row.type <> 'settlement_reversal' then
      raise exception using errcode = 'BT409', message = 'Insufficient balance';
    end if;
    insert into app.account_days as d (account, day, stripe, amount_in, amount_out)
    select l.account, v_day, v_stripe, greatest(-v_row.amount, 0), greatest(v_row.amount, 0)
    from app.ledger_types l
    where l.type = v_row.type and l.account <> 'stakes_held'
    on conflict (account, day, stripe) do update
      set amount_in = d.amount_in + excluded.amount_in, amount_out = d.amount_out + excluded.amount_out;
    return next v_row;
    return;
  end if;

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
  'The one posting function: writes ledger rows and house transfers and moves the balances (in one statement; a single new completed row, such as a bet''s stake, in a few of its own). Internal: the money functions.';

/** Functions: the books' lines */

-- Adds a batch's bets to its match's line of the books (app.match_lines): the line booked at p_booked_at
-- (the run's: a settlement's declaration, a correction's approval), created by its first batch. Called in
-- the transaction that posts the batch's money, with the same booking time, so the lines of a day and the
-- house_result account's day total move together. Batches of one run follow one another on the match row,
-- so the line's row never makes them wait longer. Internal: settlement and corrections.
create function app.book_match_line(
  p_match_id bigint, p_booked_at timestamptz, p_bets int, p_stakes bigint, p_paid bigint, p_refunded bigint
)
returns void
language sql
set search_path = ''
as $$
  insert into app.match_lines as l (match_id, booked_at, bets, stakes, paid, refunded)
  values (p_match_id, p_booked_at, p_bets, p_stakes, p_paid, p_refunded)
  on conflict (match_id, booked_at) do update
    set bets = l.bets + excluded.bets, stakes = l.stakes + excluded.stakes, paid = l.paid + excluded.paid,
        refunded = l.refunded + excluded.refunded;
$$;
comment on function app.book_match_line(bigint, timestamptz, int, bigint, bigint, bigint) is
  'Internal: adds a settlement (or correction) batch''s bets to its match''s line of the books.';

/** Functions: the books (API) */

-- GET /api/admin/books: the house's books from p_from to p_to (IST days, both included, at most 366), built
-- from what settlement and the posting function keep as they go (never a scan of the ledger), rupees as
-- integers:
--   matches: each line of the books booked in the range (a match's settlement; each correction is a line of
--     its own), newest first: match_id, team1, team2, settled_at (when its outcome was fixed), bets, stakes,
--     paid, refunded, house_result (stakes - paid - refunded);
--   days: every day of the range, oldest first: deposits credited, withdrawals paid, admin_credits (net of
--     debits), referral_bonuses, house_result;
--   totals: the sums of both.
-- The lines and the days are booked at the same moments, so the matches' house result and the days' add up
-- to the same (app.reconcile checks it). For an active admin.
create function app.books(p_from date, p_to date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app.require_admin();
  if p_from is null or p_to is null or p_from > p_to then
    raise exception using errcode = 'BT400', message = 'The start date must be on or before the end date';
  end if;
  if p_to - p_from >= 366 then
    raise exception using errcode = 'BT400', message = 'The books cover at most 366 days';
  end if;
  return (
    with lines as (
      select l.match_id, t1.name as team1, t2.name as team2, l.booked_at as settled_at, l.bets, l.stakes, l.paid,
             l.refunded, l.stakes - l.paid - l.refunded as house_result
      from app.match_lines l
      join public.matches m on m.id = l.match_id
      join public.teams t1 on t1.id = m.team1_id
      join public.teams t2 on t2.id = m.team2_id
      where l.booked_at >= p_from::timestamp at time zone 'Asia/Kolkata'
        and l.booked_at < (p_to + 1)::timestamp at time zone 'Asia/Kolkata'
    ),
    flows as (
      select d.day,
             coalesce(sum(d.amount_out) filter (where d.account = 'gateway_clearing'), 0) as deposits,
             coalesce(sum(d.amount_in) filter (where d.account = 'gateway_clearing'), 0) as withdrawals,
             coalesce(sum(d.amount_out - d.amount_in) filter (where d.account = 'adjustments'), 0) as admin_credits,
             coalesce(sum(d.amount_out - d.amount_in) filter (where d.account = 'bonuses'), 0) as referral_bonuses,
             coalesce(sum(d.amount_in - d.amount_out) filter (where d.account = 'house_result'), 0) as house_result
      from app.account_days d
      where d.day between p_from and p_to
      group by d.day
    ),
    days as (
      select g.day::date as day, coalesce(f.deposits, 0) as deposits, coalesce(f.withdrawals, 0) as withdrawals,
             coalesce(f.admin_credits, 0) as admin_credits, coalesce(f.referral_bonuses, 0) as referral_bonuses,
             coalesce(f.house_result, 0) as house_result
      from generate_series(p_from, p_to, interval '1 day') g (day)
      left join flows f on f.day = g.day::date
    )
    select jsonb_build_object(
      'matches', coalesce((select jsonb_agg(to_jsonb(l) order by l.settled_at desc, l.match_id desc) from lines l), '[]'),
      'days', (select jsonb_agg(to_jsonb(d) order by d.day) from days d),
      'totals', (select jsonb_build_object(
                          'bets', coalesce(sum(l.bets), 0), 'stakes', coalesce(sum(l.stakes), 0),
                          'paid', coalesce(sum(l.paid), 0), 'refunded', coalesce(sum(l.refunded), 0))
                 from lines l)
                || (select jsonb_build_object(
                             'deposits', sum(d.deposits), 'withdrawals', sum(d.withdrawals),
                             'admin_credits', sum(d.admin_credits), 'referral_bonuses', sum(d.referral_bonuses),
                             'house_result', sum(d.house_result))
                    from days d))
  );
end;
$$;
comment on function app.books(date, date) is
  'The house''s books of a range of IST days: per match line, per day and totals. Caller: API as an admin.';

-- GET /api/admin/books.csv: the same books as CSV lines (the header first), one table for all three parts:
-- 'match' lines (newest first), then 'day' lines (oldest first), then the 'total' line; each line fills the
-- columns of its part. Texts go through app.csv_field (quoted where needed, guarded against formulas).
create function app.books_csv(p_from date, p_to date)
returns setof text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  with books as (select app.books(p_from, p_to) as b)
  select l.line
  from (
    select 0 as part, 0::bigint as n,
           'line,match_id,team1,team2,settled_at (IST),day,bets,stakes,paid,refunded,deposits,withdrawals,'
           || 'admin_credits,referral_bonuses,house_result' as line
    union all
    select 1, x.n,
           concat_ws(',', 'match', m ->> 'match_id', app.csv_field(m ->> 'team1'), app.csv_field(m ->> 'team2'),
                     to_char((m ->> 'settled_at')::timestamptz at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS'),
                     '', m ->> 'bets', m ->> 'stakes', m ->> 'paid', m ->> 'refunded', '', '', '', '',
                     m ->> 'house_result')
    from books, jsonb_array_elements(books.b -> 'matches') with ordinality as x (m, n)
    union all
    select 2, x.n,
           concat_ws(',', 'day', '', '', '', '', d ->> 'day', '', '', '', '', d ->> 'deposits', d ->> 'withdrawals',
                     d ->> 'admin_credits', d ->> 'referral_bonuses', d ->> 'house_result')
    from books, jsonb_array_elements(books.b -> 'days') with ordinality as x (d, n)
    union all
    select 3, 0,
           concat_ws(',', 'total', '', '', '', '', '', t ->> 'bets', t ->> 'stakes', t ->> 'paid', t ->> 'refunded',
                     t ->> 'deposits', t ->> 'withdrawals', t ->> 'admin_credits', t ->> 'referral_bonuses',
                     t ->> 'house_result')
    from books, jsonb_extract_path(books.b, 'totals') as t
  ) l
  order by l.part, l.n;
end;
$$;
comment on function app.books_csv(date, date) is
  'The house''s books of a range of IST days as CSV lines, header first. Caller: API as an admin.';

/** Functions: reconciliation */

-- Every way the books can be wrong, one row each (must be none):
--   * a wallet whose balance differs from its entries;
--   * a transfer whose entries do not sum to zero (so the accounts sum to zero);
--   * a house account whose day totals (its balance, app.account_days) differ from its entries;
--   * stakes held that differ from the stakes of the open bets;
--   * a posted withdrawal not gone on to the bank (withdrawals_payable holds nothing once posted);
--   * an IST day whose house result (the house_result account's day total) differs from its matches' lines;
--   * a player marked below zero who is not (a balance below zero without the mark is refused by
--     users_balance_below_zero).
-- Read-only; for monitoring and tests. Reads the whole ledger.
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
  with entries as (
    select e.account, sum(e.amount) as total from app.entries e where e.account <> 'wallet' group by e.account
  ),
  days as (
    select d.account, sum(d.amount_in - d.amount_out) as total from app.account_days d group by d.account
  ),
  open_bets as (
    select coalesce(sum(b.amount), 0) as total from public.bets b where b.status = 'placed'
  )
  select case a.code when 'stakes_held' then 'stakes held differ from the open bets'
                     else 'house account differs from its entries' end,
         'account ' || a.code,
         coalesce(e.total, 0)::bigint,
         (case a.code when 'stakes_held' then (select o.total from open_bets o) else coalesce(d.total, 0) end)::bigint
  from app.accounts a
  left join entries e on e.account = a.code
  left join days d on d.account = a.code
  where a.code <> 'wallet'
    and coalesce(e.total, 0) <> case a.code when 'stakes_held' then (select o.total from open_bets o)
                                            else coalesce(d.total, 0) end
  union all
  select 'withdrawals payable not paid out', 'account withdrawals_payable', 0::bigint, e.total::bigint
  from entries e
  where e.account = 'withdrawals_payable' and e.total <> 0;

  return query
  with results as (
    select d.day, sum(d.amount_in - d.amount_out) as total
    from app.account_days d
    where d.account = 'house_result'
    group by d.day
  ),
  lines as (
    select (l.booked_at at time zone 'Asia/Kolkata')::date as day, sum(l.stakes - l.paid - l.refunded) as total
    from app.match_lines l
    group by 1
  )
  select 'house result differs from its matches', 'day ' || coalesce(r.day, l.day),
         coalesce(l.total, 0)::bigint, coalesce(r.total, 0)::bigint
  from results r
  full join lines l on l.day = r.day
  where coalesce(r.total, 0) <> coalesce(l.total, 0);

  return query
  select 'marked below zero but is not', 'user ' || u.id, 0::bigint, u.wallet_balance
  from public.users u
  where u.below_zero_since is not null and u.wallet_balance >= 0;
end;
$$;
comment on function app.reconcile() is 'Every way the books are wrong, one row each (must be none). Caller: service_role.';

/** Function privileges */

revoke execute on function
  app.ledger_row(bigint, text, bigint, text, text, text, bigint, text, bigint),
  app.ledger_decision(bigint, text, text),
  app.house_transfer(text, text, bigint, text, bigint, bigint),
  app.post_transfers(public.transactions[], app.house_transfers[], timestamptz),
  app.book_match_line(bigint, timestamptz, int, bigint, bigint, bigint),
  app.books(date, date),
  app.books_csv(date, date),
  app.reconcile()
  from public, anon, authenticated, service_role;
grant execute on function app.reconcile(), app.books(date, date), app.books_csv(date, date) to service_role;
