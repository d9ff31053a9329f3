-- Placing bets: minimum stake, balance (available, net of pending withdrawals), team of the match,
-- match state, server-side odds, user status; the debit and its ledger row.
begin;
set local search_path = tests, public;
select plan(27);

select tests.create_user('punter', 5000);
select tests.create_user('poor', 1500);
select tests.create_match('upcoming', 1, 2) as upcoming \gset
select tests.create_match('live', 3, 4) as live \gset
select tests.create_match('completed', 5, 6) as done \gset

/** Stake limits and balance */

select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 1, 999)', :upcoming), 'BT400',
  'Invalid amount: Please enter an amount of at least ₹1000.', '999 is below the minimum bet');
select throws_ok(format('select app.place_bet(%s, 1, null)', :upcoming), 'BT400',
  'Invalid amount: Please enter an amount of at least ₹1000.', 'an amount is required');
select results_eq(format('select amount, odds, potential_win, status::text, team_id from app.place_bet(%s, 1, 1000)', :upcoming),
  $$values (1000::bigint, 3.00::numeric(4,2), 3000::bigint, 'placed', 1::bigint)$$,
  '1000 is accepted at odds 3.00 with potential win 3000');
select tests.reset_role();
select is(tests.balance('punter'), 4000::bigint, 'the stake is debited');
select results_eq($$select t.amount, t.status::text, t.reference_id::text from public.transactions t
                    where t.user_id = tests.uid('punter') and t.type = 'bet_placed'$$,
  format($$values (-1000::bigint, 'completed', 'BET-%s')$$, (select max(id) from public.bets)),
  'with a completed bet_placed ledger row of -1000 referencing the bet');

select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 3, 4001)', :live), 'BT409',
  'Insufficient balance: You don''t have enough funds in your wallet. Please recharge your wallet.',
  'a stake above the balance is refused');
select lives_ok(format('select app.place_bet(%s, 4, 4000, 3, 12000)', :live),
  'a live match takes bets; the whole balance can be staked; client odds 3 and potential win 12000 agree');
select tests.reset_role();
select is(tests.balance('punter'), 0::bigint, 'the wallet is empty');
select is((select count(*)::int from public.bets where user_id = tests.uid('punter')), 2, 'two bets');

/** Available balance counts pending withdrawals */

select tests.call_as('poor');
select app.add_bank_account('Poor P', '111111111', 'SBIN0001111', 'State Bank');
select app.request_withdrawal(600, (select id from public.bank_accounts where user_id = tests.uid('poor')));
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :upcoming), 'BT409',
  'Insufficient balance: You don''t have enough funds in your wallet. Please recharge your wallet.',
  'a pending withdrawal reserves its funds (1500 - 600 < 1000)');
select tests.reset_role();
select is(tests.balance('poor'), 1500::bigint, 'the refused bet moved nothing');

/** Match and team */

select tests.deposit('punter', 10000);
select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 3, 1000)', :upcoming), 'BT400',
  'Selected team is not playing in this match', 'a team outside the match is refused');
select throws_ok(format('select app.place_bet(%s, null, 1000)', :upcoming), 'BT400',
  'Selected team is not playing in this match', 'a team is required');
select throws_ok(format('select app.place_bet(%s, 5, 1000)', :done), 'BT409',
  'Betting is closed for this match', 'a completed match takes no bets');
select throws_ok('select app.place_bet(999999999, 1, 1000)', 'BT404', 'Match not found', 'unknown match');

/** Odds are the server's */

select throws_ok(format('select app.place_bet(%s, 1, 1000, 2.5)', :upcoming), 'BT409', 'Odds have changed',
  'other odds from the client are refused');
select throws_ok(format('select app.place_bet(%s, 1, 1000, 3, 5000)', :upcoming), 'BT409', 'Odds have changed',
  'a potential win that is not amount x 3 is refused');
select results_eq(format('select odds, potential_win from app.place_bet(%s, 1, 1500, 3.0)', :upcoming),
  $$values (3.00::numeric(4,2), 4500::bigint)$$, 'odds 3.0 from the client are accepted; the server computes 4500');

/** Caller status */

select tests.reset_role();
update public.users set status = 'suspended' where username = 'punter';
select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :upcoming), 'BT403', 'Your account is suspended',
  'a suspended user cannot bet');
select tests.reset_role();
update public.users set status = 'banned' where username = 'punter';
select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :upcoming), 'BT403', 'Your account is banned',
  'a banned user cannot bet');
select tests.reset_role();
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :upcoming), 'BT401', 'Authentication required',
  'no claims, no bet');
select is(tests.balance('punter'), 8500::bigint, 'refused bets moved nothing (10000 - 1500)');

/** Claims alone are not trusted */

select set_config('request.jwt.claims', json_build_object('role', 'authenticated', 'user_id', 999999999, 'app_role', 'admin')::text, true);
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :upcoming), 'BT401', 'Authentication required',
  'claims naming an unknown user are refused');
select tests.reset_role();

/** Bets through the direct path are impossible */

select tests.act_as('poor');
select throws_ok(format('insert into public.bets (user_id, match_id, team_id, amount, potential_win) values (%s, %s, 1, 1000, 3000)',
  tests.uid('poor'), :upcoming), '42501', null, 'a player cannot insert bets directly');
select throws_ok(format('update public.users set wallet_balance = 1000000 where id = %s', tests.uid('poor')),
  '42501', null, 'a player cannot write their balance');
select tests.reset_role();
select is(tests.balance('poor'), 1500::bigint, 'balance unchanged');

select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
