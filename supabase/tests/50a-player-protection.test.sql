-- Player protection (50_player_protection.sql): deposit limits (exactly reached, rolling windows,
-- strictest wins, the 24-hour cool-off of raises and removals), time-outs and self-exclusion (at once, to the
-- exact end, never shortened, not lifted by an admin), the append-only history, statements. Times are passed
-- in (p_now) where a rule depends on them.
begin;
set local search_path = tests, public;
select plan(75);

select tests.create_admin('guardian');
select now() as t0 \gset

/** Texts */

select is(app.format_rupees(150000), '₹1,50,000', 'amounts in messages use Indian digit grouping');
select is(app.format_ist('2026-11-22 09:00:00+00'), '22 Nov 2026, 2:30 pm IST', 'times in messages are India Standard Time');

/** Deposit limits: reaching one exactly */

select tests.create_user('lim_a');
select tests.uid('lim_a') as lim_a, tests.new_ref() as ref_a1, tests.new_ref() as ref_a2, tests.new_ref() as ref_a3,
       tests.new_ref() as ref_a4 \gset
select tests.call_as('lim_a');
select is(app.set_deposit_limit('daily', 5000) -> 'deposit_limits', '{"daily": 5000, "weekly": null, "monthly": null}',
  'a first limit applies at once');
select lives_ok(format($$select app.request_deposit(3000, 'upi', %L)$$, :'ref_a1'), 'a deposit under the limit passes');
select lives_ok(format($$select app.request_deposit(2000, 'upi', %L)$$, :'ref_a2'),
  'one reaching the limit exactly passes (the pending one before it counts)');
select throws_ok(format($$select app.request_deposit(500, 'upi', %L)$$, :'ref_a3'), 'BT409',
  'Deposit limit reached: Your daily limit is ₹5,000 and nothing is left.', 'one rupee more does not');
select lives_ok(format($$select app.request_deposit(2000, 'upi', %L)$$, :'ref_a2'),
  'a retried pending request adds nothing and is answered as before');
select tests.as_webhook();
select app.complete_deposit(:'ref_a2', 2000, 'failed', 'GW-' || :'ref_a2');
select app.complete_deposit(:'ref_a1', 3000, 'success', 'GW-' || :'ref_a1');
select tests.call_as('lim_a');
select throws_ok(format($$select app.request_deposit(2500, 'upi', %L)$$, :'ref_a3'), 'BT409',
  'Deposit limit reached: Your daily limit is ₹5,000 and ₹2,000 is left.',
  'a failed deposit frees its share, a completed one keeps it; the message says what is left');
select is(app.account_limits() -> 'deposit_remaining', '{"daily": 2000, "weekly": null, "monthly": null}',
  'the player can see what is left');
select lives_ok(format($$select app.request_deposit(2000, 'upi', %L)$$, :'ref_a4'), 'exactly what is left passes');
select tests.reset_role();
select lives_ok(format($$select app.assert_may_deposit(%s, 5000, 'REF-1-NONE', %L::timestamptz + interval '24 hours')$$, :lim_a, :'t0'),
  'the window rolls: 24 hours after them, the deposits no longer count');
select throws_ok(format($$select app.assert_may_deposit(%s, 500, 'REF-1-NONE', %L::timestamptz + interval '24 hours' - interval '1 microsecond')$$, :lim_a, :'t0'),
  'BT409', 'Deposit limit reached: Your daily limit is ₹5,000 and nothing is left.', 'a microsecond before, they still do');

/** Deposit limits: the strictest wins */

select tests.create_user('lim_b');
select tests.uid('lim_b') as lim_b \gset
select tests.call_as('lim_b');
select app.set_deposit_limit('daily', 5000);
select app.set_deposit_limit('weekly', 3000);
select app.set_deposit_limit('monthly', 20000);
select lives_ok($$select app.request_deposit(3000, 'upi', tests.new_ref())$$, 'a deposit within every limit passes');
select throws_ok($$select app.request_deposit(500, 'upi', tests.new_ref())$$, 'BT409',
  'Deposit limit reached: Your weekly limit is ₹3,000 and nothing is left.',
  'the weekly limit binds below the daily one and is the one named');
select tests.reset_role();
select throws_ok(format($$select app.assert_may_deposit(%s, 500, 'REF-1-NONE', %L::timestamptz + interval '2 days')$$, :lim_b, :'t0'),
  'BT409', 'Deposit limit reached: Your weekly limit is ₹3,000 and nothing is left.',
  'two days later the daily window is empty and the weekly limit still binds');
select lives_ok(format($$select app.assert_may_deposit(%s, 3000, 'REF-1-NONE', %L::timestamptz + interval '7 days')$$, :lim_b, :'t0'),
  'after seven days the weekly window is empty too');
select results_eq(format($$select period, amount, remaining from app.deposit_limit_status(%s, %L)$$, :lim_b, :'t0'),
  $$values ('daily', 5000::bigint, 2000::bigint), ('weekly', 3000, 0), ('monthly', 20000, 17000)$$,
  'every period counts the same deposits against its own limit');

/** Deposit limits: the 24-hour cool-off of raises and removals */

select tests.create_user('lim_c');
select tests.uid('lim_c') as lim_c \gset
select tests.call_as('lim_c');
select app.set_deposit_limit('daily', 1000, null, :'t0');
select is(app.set_deposit_limit('daily', 5000, null, :'t0') #> '{deposit_limits,daily}', '1000', 'a raise does not apply at once');
select is(app.account_limits(null, :'t0') -> 'pending_changes',
  jsonb_build_array(jsonb_build_object('period', 'daily', 'amount', 5000, 'requested_at', :'t0'::timestamptz,
                                       'effective_at', :'t0'::timestamptz + interval '24 hours')),
  'it is pending, with the time it applies: 24 hours after the request');
select is(app.account_limits(null, :'t0'::timestamptz + interval '24 hours' - interval '1 microsecond') #> '{deposit_limits,daily}', '1000',
  'until the 24 hours have passed the old limit stands');
select is(app.account_limits(null, :'t0'::timestamptz + interval '24 hours') -> 'deposit_limits', '{"daily": 5000, "weekly": null, "monthly": null}',
  'at 24 hours the raise applies');
select is(app.account_limits(null, :'t0'::timestamptz + interval '24 hours') -> 'pending_changes', '[]', 'and is no longer pending');
select app.set_deposit_limit('daily', 20000, null, :'t0'::timestamptz + interval '1 hour');
select is(app.account_limits(null, :'t0'::timestamptz + interval '24 hours') #> '{deposit_limits,daily}', '1000',
  'a new raise replaces the pending one, restarting the 24 hours');
select is(app.account_limits(null, :'t0'::timestamptz + interval '25 hours') #> '{deposit_limits,daily}', '20000',
  'and applies 24 hours after its own request');
select is(app.set_deposit_limit('daily', 800, null, :'t0'::timestamptz + interval '2 hours') #> '{deposit_limits,daily}', '800',
  'lowering applies at once');
select is(app.account_limits(null, :'t0'::timestamptz + interval '30 hours') #> '{deposit_limits,daily}', '800',
  'and cancels the pending raise');
select is(app.set_deposit_limit('daily', null, null, :'t0'::timestamptz + interval '3 hours') #>> '{pending_changes,0,amount}', null,
  'a removal is pending too');
select is(app.account_limits(null, :'t0'::timestamptz + interval '27 hours' - interval '1 microsecond') #> '{deposit_limits,daily}', '800',
  'the limit stands for the 24 hours of a removal');
select is(app.account_limits(null, :'t0'::timestamptz + interval '27 hours') #> '{deposit_limits,daily}', 'null',
  'then there is none');
select app.set_deposit_limit('weekly', 7000, null, :'t0');
select app.set_deposit_limit('weekly', 9000, null, :'t0');
select is(jsonb_path_exists(app.set_deposit_limit('weekly', 7000, null, :'t0'::timestamptz + interval '1 hour') -> 'pending_changes',
                             '$[*] ? (@.period == "weekly")'), false,
  'asking for the limit in force again cancels a pending raise');
select is(app.account_limits(null, :'t0'::timestamptz + interval '2 days') #> '{deposit_limits,weekly}', '7000', 'for good');
select app.set_deposit_limit('weekly', 7000, null, :'t0'::timestamptz + interval '2 hours');
select tests.reset_role();
select is((select count(*)::int from public.protection_changes where user_id = :lim_c and period = 'weekly'), 3,
  'asking for the limit in force with nothing pending writes nothing');
select tests.call_as('lim_c');
select throws_ok($$select app.set_deposit_limit('yearly', 1000)$$, 'BT400', 'Period must be one of daily, weekly, monthly', 'periods are fixed');
select throws_ok($$select app.set_deposit_limit('daily', 499)$$, 'BT400', 'Deposit limit must be between ₹500 and ₹1,00,00,000',
  'a limit is at least the smallest deposit');

/** Time-out */

select tests.create_user('ex_a', 5000);
select tests.create_match('live', 1, 2) as live \gset
select tests.uid('ex_a') as ex_a,
       format('Time-out: You cannot bet or deposit until %s.', app.format_ist(now() + interval '1 day')) as timeout_1,
       format('Already excluded: Your time-out runs until %s.', app.format_ist(now() + interval '1 day')) as timeout_1_runs,
       format('Time-out: You cannot bet or deposit until %s.', app.format_ist(now() + interval '7 days')) as timeout_7 \gset
select tests.call_as('ex_a');
select id as ex_a_account from app.add_bank_account('Ex A Player', '123456789', 'HDFC0001234', 'HDFC Bank') \gset
select app.place_bet(:live, 1, 1000);
select is(app.take_timeout(1) -> 'timeout_until', to_jsonb(now() + interval '1 day'), 'a time-out applies at once');
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :live), 'BT403', :'timeout_1', 'no bet during a time-out, saying until when');
select throws_ok($$select app.request_deposit(1000, 'upi', tests.new_ref())$$, 'BT403', :'timeout_1', 'no deposit either');
select lives_ok(format('select app.request_withdrawal(500, %s)', :ex_a_account), 'withdrawals stay open');
select throws_ok('select app.take_timeout(1)', 'BT409', :'timeout_1_runs', 'a time-out cannot be shortened or renewed to the same end');
select throws_ok('select app.take_timeout(2)', 'BT400', 'A time-out lasts 1, 7, 30 or 42 days', 'time-outs have fixed lengths');
select is(app.take_timeout(7) -> 'timeout_until', to_jsonb(now() + interval '7 days'), 'a longer one extends it');
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :live), 'BT403', :'timeout_7', 'the message names the new end');
select tests.reset_role();
select throws_ok(format($$select app.assert_may_gamble(%s, now() + interval '7 days' - interval '1 microsecond')$$, :ex_a), 'BT403',
  :'timeout_7', 'the time-out runs to its last microsecond');
select lives_ok(format($$select app.assert_may_gamble(%s, now() + interval '7 days')$$, :ex_a), 'and ends exactly at its time');
select tests.call_as('guardian');
select app.declare_winner(:live, 1, null);
select tests.settle(:live);
select tests.reset_role();
select is(tests.balance('ex_a'), 7000::bigint, 'a bet placed before the time-out stands and is paid (5000 - 1000 + 3000)');

/** Self-exclusion, and what an admin cannot do */

select tests.create_user('ex_b', 2000);
select tests.uid('ex_b') as ex_b,
       format('Self-exclusion: You cannot bet or deposit until %s.', app.format_ist(now() + interval '60 months')) as excluded,
       format('Already excluded: Your self-exclusion runs until %s.', app.format_ist(now() + interval '6 months')) as excluded_runs \gset
select tests.create_match('upcoming', 3, 4) as upcoming \gset
select tests.call_as('ex_b');
select is(app.self_exclude(6) -> 'self_excluded_until', to_jsonb(now() + interval '6 months'), 'self-exclusion applies at once');
select throws_ok('select app.take_timeout(42)', 'BT409', :'excluded_runs', 'a shorter time-out cannot replace it');
select throws_ok('select app.self_exclude(3)', 'BT400', 'A self-exclusion lasts 6, 12 or 60 months', 'self-exclusions have fixed lengths');
select lives_ok('select app.self_exclude(60)', 'a longer one extends it');
select throws_ok(format('select app.place_bet(%s, 3, 1000)', :upcoming), 'BT403', :'excluded', 'no bet while self-excluded');
select tests.call_as('ex_a');
select throws_ok(format('select app.account_limits(%s)', :ex_b), 'BT403', 'You can only view your own limits',
  'a player cannot read another player''s protection');
select tests.call_as('guardian');
select is(app.account_limits(:ex_b) -> 'self_excluded_until', to_jsonb(now() + interval '60 months'), 'an admin can see it');
select throws_ok(format('select app.set_deposit_limit(%L, null, %s)', 'daily', :ex_b), 'BT403',
  'Only the player can change their own limits, time-out or self-exclusion', 'an admin cannot change a player''s limits');
select throws_ok(format('select app.self_exclude(6, %s)', :ex_b), 'BT403',
  'Only the player can change their own limits, time-out or self-exclusion', 'nor their exclusion');
select app.set_user_status(:ex_b, 'suspended');
select app.set_user_status(:ex_b, 'active');
select tests.reset_role();
select throws_ok(format('select app.assert_may_gamble(%s)', :ex_b), 'BT403', :'excluded',
  'suspending and reactivating the player lifts nothing');
select lives_ok(format($$select app.assert_may_gamble(%s, now() + interval '60 months')$$, :ex_b), 'it ends exactly at its time');

/** The history is append-only */

select throws_ok(format('update public.protection_changes set ends_at = now() where user_id = %s', :ex_b), 'BT403',
  'Player protection history cannot be changed', 'not even the owner of the table can shorten an exclusion');
select throws_ok(format('delete from public.protection_changes where user_id = %s', :ex_b), 'BT403',
  'Player protection history cannot be changed', 'or delete it');
select throws_ok('truncate public.protection_changes', 'BT403', 'Player protection history cannot be changed', 'or truncate the history');
select throws_ok(format($$insert into public.protection_changes (user_id, changed_by, kind, effective_at, ends_at)
                          values (%s, %s, 'timeout', now(), now() + interval '1 day')$$, :ex_b, tests.uid('guardian')),
  '23514', null, 'a change is always the player''s own');
select tests.call_as('guardian');
select throws_ok(format('delete from public.protection_changes where user_id = %s', :ex_b), '42501', null,
  'the API role has no write privilege on it');
select tests.act_as('ex_a');
select is((select array_agg(distinct user_id) from public.protection_changes), array[:ex_a::bigint],
  'a player reads only their own history');
select tests.reset_role();

/** Statements */

select tests.create_user('st_a', 3000);
select tests.uid('st_a') as st_a, tests.new_ref() as ref_s, (now() at time zone 'Asia/Kolkata')::date as today \gset
select tests.create_match('upcoming', 5, 6) as st_match \gset
select tests.call_as('st_a');
select app.request_deposit(1000, 'upi', :'ref_s');
select id as st_bet from app.place_bet(:st_match, 5, 1000) \gset
select (select reference_id from public.transactions where user_id = :st_a and type = 'deposit' and status = 'completed') as ref_first \gset
select results_eq(format($$select substr(line, 21), balance_after from app.statement(null, %L, %L)$$, :'today', :'today'),
  format($$values (%L, 3000::bigint), (%L, 3000), (%L, 2000)$$,
         'deposit,3000,completed,' || :'ref_first' || ',3000',
         'deposit,1000,pending,' || :'ref_s' || ',3000',
         'bet_placed,-1000,completed,BET-' || :st_bet || ',2000'),
  'a statement lists the ledger with the running balance of completed rows');
select ok(bool_and(line ~ '^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},'), 'each line starts with its IST date and time')
  from app.statement(null, :'today', :'today');
select is((select balance_after from app.statement(null, :'today', :'today') order by id desc limit 1), tests.balance('st_a'),
  'the last balance is the wallet balance');
select id as first_id, balance_after as first_balance from app.statement(null, :'today', :'today', null, null, 2) order by id desc limit 1 \gset
select results_eq(format('select balance_after from app.statement(null, %L, %L, %s, %s, 2)', :'today', :'today', :first_id, :first_balance),
  $$values (2000::bigint)$$, 'a statement continues chunk by chunk with the balance carried over');
select is_empty(format('select * from app.statement(null, %L, %L)', (:'today'::date + 1), (:'today'::date + 1)),
  'a range without rows is empty');
select throws_ok(format('select * from app.statement(null, %L, %L)', :'today', (:'today'::date - 1)), 'BT400',
  'The start date must be on or before the end date', 'the range must be in order');
select tests.reset_role();
update public.transactions set created_at = created_at - interval '3 days' where user_id = :st_a and status = 'completed' and type = 'deposit';
select tests.call_as('st_a');
select results_eq(format('select balance_after from app.statement(null, %L, %L)', :'today', :'today'),
  $$values (3000::bigint), (2000)$$, 'a statement starts from the balance before its first day');
select tests.call_as('ex_a');
select throws_ok(format('select * from app.statement(%s, %L, %L)', :st_a, :'today', :'today'), 'BT403',
  'You can only view your own transactions', 'a player cannot download another player''s statement');
select tests.call_as('guardian');
select is((select count(*)::int from app.statement(:st_a, :'today', :'today')), 2, 'an admin can download any player''s');
select tests.reset_role();
select is(app.csv_field('=HYPERLINK("x")'), '"''=HYPERLINK(""x"")"', 'formulas are defused and quotes doubled');
select is(app.csv_field('-5'), '''-5', 'a text starting with a minus is not read as a formula');
select is(app.csv_field(E'a,b\nc'), E'"a,b\nc"', 'commas and line breaks are quoted');

select is(tests.reconcile_count(), 0::bigint, 'the ledger reconciles');

select * from finish();
rollback;
