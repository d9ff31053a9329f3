-- The house's books: every movement of money is one call of the posting function. No other function writes a
-- balance or a ledger row (read from the schema itself); a bet moves its stake to the stakes held, a
-- settlement moves the settled stakes to the house's result and pays from it, an abandoned match refunds
-- from the stakes held, a withdrawal approved goes on to the bank and one rejected moves nothing — each with
-- the players' ledger rows, types and references as before, and the match's line of the books; and
-- app.reconcile() names each way the house's accounts can be made wrong.
begin;
set local search_path = tests, public;
select plan(34);

select tests.create_user('books_a', 50000);
select tests.create_user('books_b', 50000);
select tests.create_admin('books_admin');
select tests.create_match('live') as won_match \gset
select tests.create_match('live') as void_match \gset

-- what a house account moved on the IST day of p_at, all stripes: in, out
create function pg_temp.day(p_account text, p_at timestamptz default now(), out amount_in bigint, out amount_out bigint)
language sql as $$
  select coalesce(sum(d.amount_in), 0)::bigint, coalesce(sum(d.amount_out), 0)::bigint
  from app.account_days d
  where d.account = p_account and d.day = (p_at at time zone 'Asia/Kolkata')::date
$$;
-- the balance of an account: the sum of its entries
create function pg_temp.balance(p_account text) returns bigint language sql as $$
  select coalesce(sum(e.amount), 0)::bigint from app.entries e where e.account = p_account
$$;

/** One writer */

-- Every function of the database's own schemas whose text writes a balance (an UPDATE of users setting
-- wallet_balance, an INSERT of users naming it) or a ledger row (INSERT, UPDATE or DELETE of transactions),
-- but the posting function's. Extensions' functions and this session's own are not ours.
create function pg_temp.money_writers() returns setof text language sql as $$
  select p.oid::regprocedure::text
  from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  where n.nspname not in ('pg_catalog', 'information_schema', 'tests') and n.nspname !~ '^pg_temp'
    and not exists (select 1 from pg_depend d
                    where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    and (p.prosrc ~* '\mupdate\s+(public\.)?users\M[^;]*\mwallet_balance\s*='
         or p.prosrc ~* '\minsert\s+into\s+(public\.)?users\s*\([^)]*\mwallet_balance\M'
         or p.prosrc ~* '\m(insert\s+into|update|delete\s+from)\s+(public\.)?transactions\M')
    and p.oid <> 'app.post_transfers(public.transactions[], app.house_transfers[], timestamptz)'::regprocedure
  order by 1
$$;

select is_empty('select * from pg_temp.money_writers()',
  'no function but app.post_transfers writes a balance or a ledger row');
create function app.books_test_sneaky_credit(p_user_id bigint) returns void language sql as $$
  update public.users u set status = u.status, wallet_balance = u.wallet_balance + 1 where u.id = p_user_id
$$;
create function app.books_test_sneaky_row(p_user_id bigint) returns void language plpgsql as $$
begin
  insert into public.transactions (user_id, amount, type, status) values (p_user_id, 1, 'admin_adjustment', 'completed');
end;
$$;
select results_eq('select * from pg_temp.money_writers()',
  $$values ('app.books_test_sneaky_credit(bigint)'), ('app.books_test_sneaky_row(bigint)')$$,
  'the check finds a function that writes a balance, or a ledger row, by hand');
drop function app.books_test_sneaky_credit(bigint);
drop function app.books_test_sneaky_row(bigint);

/** A bet: the stake from the wallet to the stakes held */

select pg_temp.balance('stakes_held') as held_before \gset
select tests.call_as('books_a');
select id as bet_a, potential_win as win_a from app.place_bet(:won_match, 1, 2000) \gset
select tests.call_as('books_b');
select id as bet_b from app.place_bet(:won_match, 2, 3000) \gset
select tests.reset_role();

select results_eq(format($$select type::text, amount, status::text from public.transactions where reference_id = 'BET-%s'$$, :bet_a),
  $$values ('bet_placed', -2000::bigint, 'completed')$$, 'a bet writes its bet_placed row as before (BET-{id}, minus the stake)');
select is(tests.balance('books_a'), 48000::bigint, 'and takes the stake from the wallet');
select results_eq(format($$
  select e.account, e.amount from app.entries e
  join public.transactions t on t.id = e.transaction_id
  where t.reference_id = 'BET-%s' order by e.account$$, :bet_a),
  $$values ('stakes_held', 2000::bigint), ('wallet', -2000::bigint)$$, 'to the stakes held');
select is(pg_temp.balance('stakes_held'), (:held_before + 5000)::bigint, 'the stakes held are the open bets'' stakes');
select is((select count(*) from app.account_days where account = 'stakes_held'), 0::bigint,
  'a bet writes no day total (the books count stakes when they are settled)');

/** A settlement: settled stakes to the house's result, payouts from it, one line of the books */

select amount_in as result_in, amount_out as result_out from pg_temp.day('house_result') \gset
select tests.call_as('books_admin');
select app.declare_winner(:won_match, 1);
select tests.reset_role();
select tests.settle(:won_match);
select created_at as declared_at from app.settlement_runs where match_id = :won_match \gset

select results_eq(format($$select type::text, amount, status::text from public.transactions where reference_id = 'BET-%s' order by id$$, :bet_a),
  format($$values ('bet_placed', -2000::bigint, 'completed'), ('bet_won', %s::bigint, 'completed')$$, :win_a),
  'the winner''s payout is its bet_won row, reference BET-{id}, as before');
select is(tests.balance('books_a'), (48000 + :win_a)::bigint, 'and credited to the wallet');
select is((select count(*) from public.transactions where reference_id = 'BET-' || :bet_b), 1::bigint,
  'a lost bet writes no row');
select results_eq(format($$select from_account, to_account, amount, booked_at from app.house_transfers
                           where match_id = %s and kind = 'stakes_settled'$$, :won_match),
  format($$values ('stakes_held', 'house_result', 5000::bigint, '%s'::timestamptz)$$, :'declared_at'),
  'the settled stakes go from the stakes held to the house''s result, booked when the outcome was fixed');
select is(pg_temp.balance('stakes_held'), :held_before::bigint, 'the stakes held are back to the other open bets');
select results_eq($$select amount_in, amount_out from pg_temp.day('house_result')$$,
  format('values (%s::bigint, %s::bigint)', :result_in + 5000, :result_out + :win_a),
  'the house''s result for the day: the stakes in, the payout out');
select results_eq(format($$select bets, stakes, paid, refunded, booked_at from app.match_lines where match_id = %s$$, :won_match),
  format($$values (2, 5000::bigint, %s::bigint, 0::bigint, '%s'::timestamptz)$$, :win_a, :'declared_at'),
  'the match''s line of the books: its bets, stakes, payouts and refunds');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile after a settlement');

/** An abandoned match: every stake back from the stakes held, a line with no result */

select tests.call_as('books_a');
select id as void_a from app.place_bet(:void_match, 1, 1500) \gset
select tests.call_as('books_b');
select app.place_bet(:void_match, 2, 2500);
select tests.reset_role();
select amount_in as result_in, amount_out as result_out from pg_temp.day('house_result') \gset
select tests.balance('books_a') as a_before_refund \gset
select tests.call_as('books_admin');
select app.abandon_match(:void_match);
select tests.reset_role();
select tests.settle(:void_match);

select results_eq(format($$select type::text, amount from public.transactions where reference_id = 'BET-%s' order by id$$, :void_a),
  $$values ('bet_placed', -1500::bigint), ('bet_refund', 1500::bigint)$$, 'a refund is its bet_refund row, as before');
select is(tests.balance('books_a'), (:a_before_refund + 1500)::bigint, 'and credited');
select results_eq(format($$
  select e.account, e.amount from app.entries e
  join public.transactions t on t.id = e.transaction_id
  where t.reference_id = 'BET-%s' and t.type = 'bet_refund' order by e.account$$, :void_a),
  $$values ('stakes_held', -1500::bigint), ('wallet', 1500::bigint)$$, 'from the stakes held');
select is((select count(*) from app.house_transfers where match_id = :void_match), 0::bigint,
  'nothing goes to the house''s result');
select results_eq($$select amount_in, amount_out from pg_temp.day('house_result')$$,
  format('values (%s::bigint, %s::bigint)', :result_in, :result_out), 'whose day total does not move');
select results_eq(format($$select bets, stakes, paid, refunded from app.match_lines where match_id = %s$$, :void_match),
  $$values (2, 4000::bigint, 0::bigint, 4000::bigint)$$, 'the line: every stake refunded, a house result of zero');

/** Withdrawals: paid out to the bank, or returned */

select tests.call_as('books_b');
select id as bank_account from app.add_bank_account('Books B', '390039001', 'HDFC0003901', 'HDFC Bank') \gset
select id as paid_wd from app.request_withdrawal(1000, :bank_account) \gset
select id as returned_wd from app.request_withdrawal(700, :bank_account) \gset
select tests.reset_role();
select tests.balance('books_b') as b_before \gset
select amount_in as clearing_in from pg_temp.day('gateway_clearing') \gset

select tests.call_as('books_admin');
select results_eq(format('select status::text, amount from app.approve_transaction(%s)', :paid_wd),
  $$values ('completed', -1000::bigint)$$, 'an approved withdrawal answers as before');
select results_eq(format('select status::text, amount from app.reject_transaction(%s)', :returned_wd),
  $$values ('failed', -700::bigint)$$, 'and a rejected one');
select tests.reset_role();
select is(tests.balance('books_b'), (:b_before - 1000)::bigint, 'the approved withdrawal leaves the wallet, the rejected one does not');
select results_eq(format($$select from_account, to_account, amount from app.house_transfers where transaction_id = %s$$, :paid_wd),
  $$values ('withdrawals_payable', 'gateway_clearing', 1000::bigint)$$,
  'the paid withdrawal passes on from withdrawals_payable to the bank');
select is(pg_temp.balance('withdrawals_payable'), 0::bigint, 'so withdrawals_payable holds nothing');
select is((select amount_in from pg_temp.day('gateway_clearing')), (:clearing_in + 1000)::bigint,
  'the day''s withdrawals paid count it');
select is((select count(*) from app.house_transfers where transaction_id = :returned_wd), 0::bigint,
  'a returned withdrawal moves nothing');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile');

/** The books as CSV: a team's name a spreadsheet would run is guarded */

insert into public.teams (name, short_name) values ('=HYPERLINK("x", "Books XI")', 'BKXI');
select tests.create_match('live', (select id from public.teams where short_name = 'BKXI'), 7) as csv_match \gset
select tests.call_as('books_a');
select app.place_bet(:csv_match, 7, 1000);
select tests.call_as('books_admin');
select app.declare_winner(:csv_match, (select id from public.teams where short_name = 'BKXI'));
select tests.reset_role();
select tests.settle(:csv_match);
select tests.call_as('books_admin');
select matches(
  (select l from app.books_csv(current_date - 1, current_date + 1) l where l like 'match,' || :csv_match || ',%'),
  format($re$^match,%s,"'=HYPERLINK\(""x"", ""Books XI""\)",Rajasthan Royals,[0-9: -]{19},,1,1000,0,0,,,,,1000$$re$, :csv_match),
  'a CSV line''s texts are quoted and guarded against spreadsheet formulas');
select tests.reset_role();

/** What app.reconcile() catches in the house's accounts */

insert into app.house_transfers (from_account, to_account, amount, kind, transaction_id, booked_at)
select 'withdrawals_payable', 'gateway_clearing', 1, 'withdrawal_paid', :returned_wd, now();
select results_eq($$select problem, subject from app.reconcile() order by subject$$,
  $$values ('house account differs from its entries', 'account gateway_clearing'),
           ('house account differs from its entries', 'account withdrawals_payable'),
           ('withdrawals payable not paid out', 'account withdrawals_payable')$$,
  'a transfer written without the posting function: its accounts'' day totals differ from their entries');
delete from app.house_transfers where transaction_id = :returned_wd;

update public.bets set status = 'placed', settled_at = null where id = :bet_b;
select results_eq($$select problem, subject from app.reconcile()$$,
  $$values ('stakes held differ from the open bets', 'account stakes_held')$$, 'a settled bet open again');
update public.bets set status = 'lost', settled_at = now() where id = :bet_b;

update app.match_lines set paid = paid + 1 where match_id = :won_match;
select results_eq($$select problem, subject from app.reconcile()$$,
  format($$values ('house result differs from its matches', 'day %s')$$, (:'declared_at'::timestamptz at time zone 'Asia/Kolkata')::date),
  'a match''s line that does not add up to its day''s house result');
update app.match_lines set paid = paid - 1 where match_id = :won_match;

select app.post_transfers(array[app.ledger_row(tests.uid('books_a'), 'withdrawal', -100, 'completed', p_bank_account_id => :bank_account)]);
select results_eq($$select problem, subject, actual from app.reconcile()$$,
  $$values ('withdrawals payable not paid out', 'account withdrawals_payable', 100::bigint)$$,
  'a withdrawal posted but not passed on to the bank');

select * from finish();
rollback;
