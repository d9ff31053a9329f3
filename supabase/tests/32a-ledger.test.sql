-- The books: the posting function's invariants. Every movement is a transfer whose two sides sum to zero;
-- balances move only with their rows, once per wallet and posting; pending transfers move nothing until
-- posted; a reference posted twice moves money once; no wallet goes below zero but by a correction's
-- reversal (and the below-zero list follows it); the house accounts' day totals follow their entries; and
-- app.reconcile() names each way the books can be made wrong.
begin;
set local search_path = tests, public;
select plan(49);

select tests.create_user('ledger_a', 5000);
select tests.create_user('ledger_b', 2000);
select tests.create_match('live') as match_id \gset
select tests.call_as('ledger_b');
select id as bank_account from app.add_bank_account('Ledger B', '123456789', 'HDFC0001234', 'HDFC Bank') \gset
select tests.reset_role();

-- the day totals of a house account for today (IST), all stripes
create function pg_temp.today(p_account text, out amount_in bigint, out amount_out bigint)
language sql as $$
  select coalesce(sum(d.amount_in), 0)::bigint, coalesce(sum(d.amount_out), 0)::bigint
  from app.account_days d
  where d.account = p_account and d.day = (now() at time zone 'Asia/Kolkata')::date
$$;
select amount_out as adjustments_out from pg_temp.today('adjustments') \gset
select amount_in as clearing_in, amount_out as clearing_out from pg_temp.today('gateway_clearing') \gset

/** Who may post */

select ok(not has_function_privilege(r, 'app.post_transfers(public.transactions[], app.house_transfers[], timestamptz)', 'execute'),
  'no API role may call the posting function: ' || r)
  from unnest(array['anon', 'authenticated', 'service_role']) r;

/** Thousands of transfers in one posting (as a settlement batch posts them) */

select is((select count(distinct id) from app.post_transfers(array(
  select app.ledger_row(tests.uid('ledger_a'), case when g % 2 = 0 then 'bet_won' else 'settlement_reversal' end,
                        case when g % 2 = 0 then 1 else -1 end, p_reference_id => 'T-MANY-' || g)
  from generate_series(1, 2000) g))), 2000::bigint, 'a posting of thousands of rows gives each its own id');
select is(tests.balance('ledger_a'), 5000::bigint, 'and moves the wallet by their sum');
select results_eq($$select count(*), count(distinct reference_id) from public.transactions where reference_id like 'T-MANY-%'$$,
  $$values (2000::bigint, 2000::bigint)$$, 'each row written once');

/** A posted transfer: both sides, the wallet, the day totals */

select results_eq($$
  select amount, type::text, status::text, reference_id::text
  from app.post_transfers(array[app.ledger_row(tests.uid('ledger_a'), 'admin_adjustment', 300, p_reference_id => 'T-ONE')])
$$, $$values (300::bigint, 'admin_adjustment', 'completed', 'T-ONE')$$, 'a completed ledger row is written as given');
select is(tests.balance('ledger_a'), 5300::bigint, 'and its wallet moves by its amount');
select results_eq($$
  select e.account, e.amount from app.entries e
  join public.transactions t on t.id = e.transaction_id
  where t.type = 'admin_adjustment' and t.reference_id = 'T-ONE'
  order by e.account
$$, $$values ('adjustments', -300::bigint), ('wallet', 300::bigint)$$,
  'seen from both sides: what leaves the adjustments arrives in the wallet');
select is((select amount_out from pg_temp.today('adjustments')), (:adjustments_out + 300)::bigint,
  'the house account''s day total counts what went out');

/** A reference posted twice moves money once */

select is_empty($$
  select * from app.post_transfers(array[app.ledger_row(tests.uid('ledger_a'), 'admin_adjustment', 300, p_reference_id => 'T-ONE')])
$$, 'the same type and reference again writes nothing');
select is(tests.balance('ledger_a'), 5300::bigint, 'and moves nothing');

/** Many transfers in one posting */

select is((select count(*) from app.post_transfers(array[
  app.ledger_row(tests.uid('ledger_a'), 'admin_adjustment', 100, p_reference_id => 'T-A1'),
  app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', 50, p_reference_id => 'T-B1'),
  app.ledger_row(tests.uid('ledger_a'), 'admin_adjustment', 200, p_reference_id => 'T-A2'),
  app.ledger_row(tests.uid('ledger_a'), 'admin_adjustment', 900, p_reference_id => 'T-ONE')])), 3::bigint,
  'a posting of many rows writes the new ones (the repeated reference is skipped)');
select is(tests.balance('ledger_a'), 5600::bigint, 'each wallet moves by the sum of its new rows');
select is(tests.balance('ledger_b'), 2050::bigint, 'the other wallet too');

/** Pending transfers: held, posted, voided */

select app.post_transfers(array[
  app.ledger_row(tests.uid('ledger_b'), 'deposit', 1000, 'pending', 'REF-1-LDGR', p_payment_method => 'upi')]);
select is(tests.balance('ledger_b'), 2050::bigint, 'a pending deposit moves nothing');
select is((select amount_out from pg_temp.today('gateway_clearing')), :clearing_out::bigint,
  'and is not in the day totals');
select results_eq($$
  select amount, status::text, gateway_txn_id::text
  from app.post_transfers(array[app.ledger_decision(
    (select id from public.transactions where reference_id = 'REF-1-LDGR'), 'completed', 'GW-LDGR')])
$$, $$values (1000::bigint, 'completed', 'GW-LDGR')$$, 'posting it completes the stored row, with the gateway id');
select is(tests.balance('ledger_b'), 3050::bigint, 'and moves the stored amount into the wallet');
select is((select amount_out from pg_temp.today('gateway_clearing')), (:clearing_out + 1000)::bigint,
  'from the gateway clearing account');
select is_empty($$
  select * from app.post_transfers(array[app.ledger_decision(
    (select id from public.transactions where reference_id = 'REF-1-LDGR'), 'completed')])
$$, 'posting it again writes nothing');
select is_empty($$
  select * from app.post_transfers(array[app.ledger_decision(
    (select id from public.transactions where reference_id = 'REF-1-LDGR'), 'failed')])
$$, 'and a posted transfer cannot be voided');
select is(tests.balance('ledger_b'), 3050::bigint, 'the wallet moved once');

select app.post_transfers(array[
  app.ledger_row(tests.uid('ledger_b'), 'withdrawal', -700, 'pending', p_bank_account_id => :bank_account)]);
select is((select reference_id::text from public.transactions where user_id = tests.uid('ledger_b') and type = 'withdrawal'),
  'WD-' || (select id from public.transactions where user_id = tests.uid('ledger_b') and type = 'withdrawal'),
  'a withdrawal''s reference is made from its own id');
select results_eq($$
  select status::text from app.post_transfers(array[app.ledger_decision(
    (select id from public.transactions where user_id = tests.uid('ledger_b') and type = 'withdrawal'), 'failed')])
$$, $$values ('failed')$$, 'voiding a pending transfer fails it');
select is(tests.balance('ledger_b'), 3050::bigint, 'and moves nothing');

/** No wallet below zero, but by a correction's reversal */

select throws_ok($$
  select app.post_transfers(array[app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', -3051, p_reference_id => 'T-B2')])
$$, 'BT409', 'Insufficient balance', 'a debit past the balance is refused');
select is(tests.balance('ledger_b'), 3050::bigint, 'and writes nothing');
select is((select count(*) from public.transactions where reference_id = 'T-B2'), 0::bigint, 'not even its row');
select results_eq($$
  select amount from app.post_transfers(array[
    app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', -3050, p_reference_id => 'T-B3')])
$$, $$values (-3050::bigint)$$, 'a debit to exactly zero is posted');
select throws_ok($$
  select app.post_transfers(array[
    app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', 500, p_reference_id => 'T-B4'),
    app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', -501, p_reference_id => 'T-B5')])
$$, 'BT409', 'Insufficient balance', 'a posting whose rows together take the wallet below zero is refused');

select app.post_transfers(array[
  app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', 1000, p_reference_id => 'T-B6'),
  app.ledger_row(tests.uid('ledger_b'), 'settlement_reversal', -3000, p_reference_id => 'T-B7')]);
-- a reversal is part of a correction, whose line of the books says what it took back
select app.book_match_line(:match_id, now(), 0, 0, -3000, 0);
select is(tests.balance('ledger_b'), -2000::bigint, 'a correction''s reversal may take a wallet below zero');
select isnt((select below_zero_since from public.users where id = tests.uid('ledger_b')), null,
  'and marks the player below zero');
select throws_ok($$
  select app.post_transfers(array[app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', -1, p_reference_id => 'T-B8')])
$$, 'BT409', 'Insufficient balance', 'below zero, nothing but a reversal lowers the wallet further');
select app.post_transfers(array[app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', 1500, p_reference_id => 'T-B9')]);
select is(tests.balance('ledger_b'), -500::bigint, 'a credit that leaves it below zero is posted');
select isnt((select below_zero_since from public.users where id = tests.uid('ledger_b')), null, 'the player stays marked');
select app.post_transfers(array[app.ledger_row(tests.uid('ledger_b'), 'admin_adjustment', 500, p_reference_id => 'T-B10')]);
select is(tests.balance('ledger_b'), 0::bigint, 'a credit brings the wallet back to zero');
select is((select below_zero_since from public.users where id = tests.uid('ledger_b')), null,
  'and clears the mark');

/** Transfers between house accounts, booked on a day of their own */

select app.post_transfers('{}',
  array[row(null, 'stakes_held', 'house_result', 1200, 'stakes_settled', :match_id, null, null, null)::app.house_transfers],
  '2026-01-01 20:00+00');
select results_eq(format($$
  select e.account, e.amount from app.entries e
  join app.house_transfers h on h.id = e.house_transfer_id
  where h.match_id = %s and h.kind = 'stakes_settled'
  order by e.account
$$, :match_id), $$values ('house_result', 1200::bigint), ('stakes_held', -1200::bigint)$$,
  'a house transfer leaves one house account and arrives in the other');
select is((select sum(amount_in) from app.account_days where account = 'house_result' and day = '2026-01-02'), 1200::numeric,
  'booked on the IST day of its booking time (20:00 UTC is the next day in India)');
select is((select count(*) from app.account_days where account = 'stakes_held'), 0::bigint,
  'stakes_held keeps no day totals (every bet moves it)');
select app.post_transfers('{}',
  array[row(null, 'house_result', 'stakes_held', 1200, 'stakes_reopened', :match_id, null, null, null)::app.house_transfers],
  '2026-01-01 20:00+00');
select throws_ok(format($$
  select app.post_transfers('{}',
    array[row(null, 'house_result', 'house_result', 5, 'stakes_settled', %s, null, null, null)::app.house_transfers])
$$, :match_id), '23514', null, 'a transfer needs two different accounts');
select throws_ok(format($$
  select app.post_transfers('{}',
    array[row(null, 'wallet', 'house_result', 5, 'stakes_settled', %s, null, null, null)::app.house_transfers])
$$, :match_id), '23514', null, 'a wallet moves only through its ledger rows');

/** What app.reconcile() catches */

select is(tests.reconcile_count(), 0::bigint, 'the books reconcile');
update public.users set wallet_balance = wallet_balance + 1 where id = tests.uid('ledger_a');
select results_eq($$select problem, subject from app.reconcile()$$,
  format($$values ('wallet differs from its entries', 'user %s')$$, tests.uid('ledger_a')),
  'a balance moved without its row');
update public.users set wallet_balance = wallet_balance - 1 where id = tests.uid('ledger_a');
update public.users set below_zero_since = now() where id = tests.uid('ledger_a');
select results_eq($$select problem, subject from app.reconcile()$$,
  format($$values ('marked below zero but is not', 'user %s')$$, tests.uid('ledger_a')),
  'a player marked below zero who is not');
update public.users set below_zero_since = null where id = tests.uid('ledger_a');
select throws_ok(format('update public.users set wallet_balance = -1 where id = %s', tests.uid('ledger_a')),
  '23514', null, 'the table refuses a balance below zero without the mark, whatever the code path');
delete from app.ledger_types where type = 'referral_bonus';
insert into public.transactions (user_id, amount, type, status, reference_id) values (tests.uid('ledger_b'), 1, 'referral_bonus', 'completed', 'T-B12');
update public.users set wallet_balance = 1 where id = tests.uid('ledger_b');
select results_eq($$select problem from app.reconcile()$$, $$values ('transfer does not balance')$$,
  'a ledger row with no house account on its other side');
select is(tests.reconcile_count(), 1::bigint, 'and nothing else');

select * from finish();
rollback;
