-- Back office: wallet adjustments (limits, notes, no overdraft), user status (ban ends sessions, not on
-- oneself), dashboard statistics, and every admin function refused to players and suspended admins.
begin;
set local search_path = tests, public;
select plan(44);

select tests.create_admin('chief');
select tests.create_admin('tests_admin');   -- used by tests.create_match; created before the baseline
-- the database may already hold data (other suites commit theirs): the dashboard is checked by deltas
select tests.call_as('chief');
select app.dashboard_stats() as baseline \gset
select tests.reset_role();
select tests.create_admin('deputy');
select tests.create_user('target', 1000);
select tests.create_user('player', 5000);

/** Wallet adjustment limits */

select tests.call_as('chief');
select throws_ok(format($$select app.admin_adjust_wallet(%s, 0, 'x')$$, tests.uid('target')), 'BT400',
  'Amount must be greater than 0', '0 is refused');
select is((select amount from app.admin_adjust_wallet(tests.uid('target'), 1, 'goodwill')), 1::bigint, '1 is accepted');
select results_eq($$select amount, status::text from app.admin_adjust_wallet(tests.uid('target'), 100000, 'prize')$$,
  $$values (100000::bigint, 'pending')$$, '100000 is accepted, pending a second admin (60b-fair-book)');
select tests.call_as('deputy');
select app.approve_transaction((select id from public.transactions where user_id = tests.uid('target') and status = 'pending'));
select tests.call_as('chief');
select throws_ok(format($$select app.admin_adjust_wallet(%s, 100001, 'x')$$, tests.uid('target')), 'BT400',
  'Maximum amount is 100,000', '100001 is refused');
select throws_ok(format($$select app.admin_adjust_wallet(%s, -100001, 'x')$$, tests.uid('target')), 'BT400',
  'Maximum amount is 100,000', '-100001 is refused');
select throws_ok(format($$select app.admin_adjust_wallet(%s, 10, null)$$, tests.uid('target')), 'BT400',
  'Please provide a reason for this adjustment', 'notes are required');
select throws_ok(format($$select app.admin_adjust_wallet(%s, 10, '   ')$$, tests.uid('target')), 'BT400',
  'Please provide a reason for this adjustment', 'blank notes are refused');
select is((select length(notes) from app.admin_adjust_wallet(tests.uid('target'), 10, repeat('n', 200))), 200,
  '200-character notes are accepted');
select throws_ok(format($$select app.admin_adjust_wallet(%s, 10, %L)$$, tests.uid('target'), repeat('n', 201)), 'BT400',
  'Notes must be under 200 characters', '201-character notes are refused');
select throws_ok('select app.admin_adjust_wallet(999999999, 10, $x$why$x$)', 'BT404', 'User not found', 'unknown user');

select tests.reset_role();
select is(tests.balance('target'), 101011::bigint, 'credits applied: 1000 + 1 + 100000 + 10');
select tests.call_as('chief');
select is((select amount from app.admin_adjust_wallet(tests.uid('target'), -100000, 'reversal')), -100000::bigint,
  'a debit of -100000 is accepted');
select throws_ok(format($$select app.admin_adjust_wallet(%s, -1012, 'too much')$$, tests.uid('target')), 'BT409',
  'Insufficient balance', 'a debit may not take the balance below zero');
select is((select amount from app.admin_adjust_wallet(tests.uid('target'), -1011, 'to zero')), -1011::bigint,
  'a debit to exactly zero is accepted');
select tests.reset_role();
select is(tests.balance('target'), 0::bigint, 'balance is zero');
select results_eq(format($$select amount, type::text, status::text, notes::text from public.transactions
                           where user_id = %s and type = 'admin_adjustment' order by id limit 1$$, tests.uid('target')),
  $$values (1::bigint, 'admin_adjustment', 'completed', 'goodwill')$$, 'an admin_adjustment ledger row carries the notes');
select results_eq(format($$select admin_id, after ->> 'notes' from public.audit_log
                           where action = 'wallet.adjust' and target_id = %s order by id limit 1$$, tests.uid('target')),
  format($$values (%s::bigint, 'goodwill')$$, tests.uid('chief')), 'and an audit row with the admin and the notes');

/** User status */

select tests.as_webhook();
select app.create_session(tests.uid('target'), repeat('t', 64));
select app.create_session(tests.uid('target'), repeat('u', 64));
select tests.call_as('chief');
select is((select status::text from app.set_user_status(tests.uid('target'), 'suspended')), 'suspended', 'suspend');
select tests.reset_role();
select is((select count(*)::int from app.sessions where user_id = tests.uid('target')), 0,
  'suspending ends every session of the user (they may sign in again and look)');
select tests.as_webhook();
select app.create_session(tests.uid('target'), repeat('v', 64));
select tests.call_as('chief');
select is((select status::text from app.set_user_status(tests.uid('target'), 'banned')), 'banned', 'ban');
select tests.reset_role();
select is((select count(*)::int from app.sessions where user_id = tests.uid('target')), 0, 'banning deletes every session');
select tests.call_as('chief');
select is((select status::text from app.set_user_status(tests.uid('target'), 'active')), 'active', 'reactivate');
select throws_ok(format($$select app.set_user_status(%s, 'deleted')$$, tests.uid('target')), 'BT400',
  'Status must be one of active, suspended, banned', 'unknown status');
select throws_ok(format($$select app.set_user_status(%s, 'suspended')$$, tests.uid('chief')), 'BT403',
  'You cannot change your own status', 'an admin cannot change their own status');
select throws_ok($$select app.set_user_status(999999999, 'banned')$$, 'BT404', 'User not found', 'unknown user');
select tests.reset_role();
select is((select count(*)::int from public.audit_log where action = 'user.set_status' and target_id = tests.uid('target')), 3,
  'status changes are audited');

/** Dashboard */

select tests.create_match('live') as live \gset
select tests.create_match('upcoming');
select tests.call_as('player');
select app.place_bet(:live, 1, 1000);
select app.request_deposit(700, 'upi', 'REF-5-PEND');
select tests.call_as('chief');
select set_eq($$select jsonb_object_keys(app.dashboard_stats())$$,
  array['totalUsers', 'activeUsers', 'totalMatches', 'liveMatches', 'upcomingMatches', 'completedMatches', 'totalBets',
        'totalTransactionVolume', 'pendingDeposits', 'pendingWithdrawals', 'recentMatches', 'recentTransactions'],
  'dashboard has exactly the keys the admin dashboard shows');
select results_eq(format($$select (s ->> k)::bigint - (%L::jsonb ->> k)::bigint
                           from app.dashboard_stats() s,
                                unnest(array['totalUsers', 'liveMatches', 'upcomingMatches', 'completedMatches', 'totalMatches',
                                             'totalBets', 'pendingDeposits', 'pendingWithdrawals',
                                             'totalTransactionVolume', 'activeUsers']) with ordinality as u(k, n)
                           order by n$$, :'baseline'),
  $$values (3::bigint), (1), (1), (0), (2), (1), (1), (0), (6000), (2)$$,
  'dashboard figures move with the data (users +3, one live and one upcoming match, one bet, one pending deposit, '
  'volume = completed deposits 1000 + 5000, active users = target and player)');
select set_eq($$select jsonb_object_keys(app.dashboard_stats() -> 'recentMatches' -> 0)$$,
  array['id', 'team1_name', 'team2_name', 'start_time', 'status'], 'recent matches carry team names');
select set_eq($$select jsonb_object_keys(app.dashboard_stats() -> 'recentTransactions' -> 0)$$,
  array['id', 'user_id', 'type', 'amount', 'status'], 'recent transactions carry id, user, type, amount and status');
select is(jsonb_array_length(app.dashboard_stats() -> 'recentTransactions'), 5, 'at most 5 recent transactions');

/** Players and suspended admins cannot use admin functions */

select tests.call_as('player');
select throws_ok(q, 'BT403', 'Admin access required', 'a player cannot call ' || split_part(q, '(', 1))
  from unnest(array[
    format('select app.admin_adjust_wallet(%s, 1000, $$gift$$)', tests.uid('player')),
    format('select app.set_user_status(%s, $$banned$$)', tests.uid('target')),
    'select app.create_match(1, 2, now())',
    format('select app.start_match(%s)', :live),
    format('select app.update_live(%s, null, null, 1, 1)', :live),
    format('select app.declare_winner(%s, 1)', :live),
    format('select app.abandon_match(%s)', :live),
    'select app.reject_transaction(1)',
    'select app.dashboard_stats()'
  ]) q;
select tests.call_as('chief');
select app.set_user_status(tests.uid('deputy'), 'suspended');
select tests.call_as('deputy');
select throws_ok('select app.dashboard_stats()', 'BT403', 'Your account is suspended', 'a suspended admin is refused');
select tests.reset_role();
select set_config('request.jwt.claims', json_build_object('role', 'authenticated', 'user_id', tests.uid('player'), 'app_role', 'admin')::text, true);
select throws_ok('select app.dashboard_stats()', 'BT403', 'Admin access required',
  'an admin claim for a player is not enough: the role comes from public.users');
select tests.reset_role();
select is(tests.balance('player'), 4000::bigint, 'the refused calls moved nothing');

select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
