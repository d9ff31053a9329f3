-- Rules against misuse that span areas (identity, wallet, admin): no admin self-dealing, atomic
-- rate-limit attempts, settled deposit references, payments after a gateway failure, admin debits against
-- the available balance, username characters.
begin;
set local search_path = tests, public;
select plan(34);

select tests.create_admin('hard_chief');
select tests.create_admin('hard_deputy');
select tests.create_user('hard_player', 2000);

/** An admin cannot approve, reject or adjust their own wallet */

select tests.call_as('hard_chief');
select app.request_deposit(1000, 'upi', 'REF-9100-SELF');
select throws_ok(format('select app.approve_transaction(%s)', (select id from public.transactions where reference_id = 'REF-9100-SELF')),
  'BT403', 'You cannot approve or adjust your own wallet', 'an admin cannot approve their own deposit');
select throws_ok(format('select app.reject_transaction(%s)', (select id from public.transactions where reference_id = 'REF-9100-SELF')),
  'BT403', 'You cannot approve or adjust your own wallet', 'an admin cannot reject their own deposit');
select throws_ok(format($$select app.admin_adjust_wallet(%s, 5000, 'bonus')$$, tests.uid('hard_chief')),
  'BT403', 'You cannot approve or adjust your own wallet', 'an admin cannot credit their own wallet');
select throws_ok(format($$select app.admin_adjust_wallet(%s, -1, 'fix')$$, tests.uid('hard_chief')),
  'BT403', 'You cannot approve or adjust your own wallet', 'an admin cannot debit their own wallet');
select tests.reset_role();
select is(tests.balance('hard_chief'), 0::bigint, 'the refused calls credited nothing');
select is((select status::text from public.transactions where reference_id = 'REF-9100-SELF'), 'pending', 'the deposit is still pending');
select tests.call_as('hard_deputy');
select is((select status::text from app.approve_transaction(
  (select id from public.transactions where reference_id = 'REF-9100-SELF'))), 'completed', 'another admin may approve it');
select tests.reset_role();
select is(tests.balance('hard_chief'), 1000::bigint, 'and it is credited');

-- own withdrawal: the admin needs funds (from the other admin), an account and a pending withdrawal
select tests.call_as('hard_chief');
select app.add_bank_account('Hard Chief', '111122223333', 'HDFC0001234', 'HDFC Bank');
select tests.reset_role();
select tests.call_as('hard_chief');
select app.request_withdrawal(500, (select id from public.bank_accounts where user_id = tests.uid('hard_chief')));
select throws_ok(format('select app.approve_transaction(%s)', (
    select id from public.transactions where user_id = tests.uid('hard_chief') and type = 'withdrawal')),
  'BT403', 'You cannot approve or adjust your own wallet', 'an admin cannot approve their own withdrawal');
select tests.reset_role();
select is(tests.balance('hard_chief'), 1000::bigint, 'the own withdrawal debited nothing');

/** Admin debits check the available balance (balance − pending withdrawals) */

select tests.call_as('hard_player');
select app.add_bank_account('Hard Player', '444455556666', 'SBIN0001234', 'State Bank');
select tests.reset_role();
select tests.call_as('hard_player');
select app.request_withdrawal(1500, (select id from public.bank_accounts where user_id = tests.uid('hard_player')));
select tests.call_as('hard_chief');
select throws_ok(format($$select app.admin_adjust_wallet(%s, -501, 'too much')$$, tests.uid('hard_player')),
  'BT409', 'Insufficient balance', 'a debit may not take the available balance below zero (2000 − 1500 pending)');
select is((select amount from app.admin_adjust_wallet(tests.uid('hard_player'), -500, 'to zero available')), -500::bigint,
  'a debit down to zero available is accepted');
select is((select amount from app.admin_adjust_wallet(tests.uid('hard_player'), 100, 'credit')), 100::bigint,
  'credits need no balance check');
select tests.reset_role();
select is(tests.balance('hard_player'), 1600::bigint, 'balance 2000 − 500 + 100');

/** Rate limiting: check and conclude */

select tests.as_webhook();
select throws_ok($$select app.check_attempt('reset', 'x', '10.7.7.7')$$, 'BT400', 'Unknown action', 'unknown action');
select throws_ok($$select app.conclude_attempt('reset', 'x', '10.7.7.7', false)$$, 'BT400', 'Unknown action',
  'unknown action, when recording too');
select throws_ok($$select app.conclude_attempt('login', 'x', '10.7.7.7', null)$$, 'BT400', 'Outcome is required',
  'an attempt is recorded with its outcome');
select app.conclude_attempt('login', 'hard_dave', '10.7.7.9', false) from generate_series(1, 9) g;
select lives_ok($$select app.conclude_attempt('login', 'hard_dave', '10.7.7.9', false)$$,
  'the 10th failure is recorded');
select throws_ok($$select app.conclude_attempt('login', 'Hard_Dave', '10.7.7.9', true)$$,
  'BT429', 'Too many attempts. Please try again in a few minutes.',
  'and an 11th outcome is refused, even a right password (username case-insensitive)');
select tests.reset_role();
select is((select count(*)::int from app.login_attempts where lower(username) = 'hard_dave'), 10,
  'the refused attempt recorded nothing');
select ok(not has_function_privilege('authenticated', 'app.check_attempt(text, text, text, timestamptz, text)', 'execute')
          and not has_function_privilege('anon', 'app.conclude_attempt(text, text, text, boolean, timestamptz, text)', 'execute')
          and not has_function_privilege('authenticated', 'app.conclude_attempt(text, text, text, boolean, timestamptz, text)', 'execute'),
  'the attempt functions are for the API (service_role) only');
select hasnt_function('app', 'check_rate_limit', array['text', 'text', 'text'], 'check_rate_limit is gone');
select hasnt_function('app', 'record_attempt', array['text', 'text', 'text', 'boolean'], 'record_attempt is gone');
select hasnt_function('app', 'begin_attempt', array['text', 'text', 'text', 'timestamptz', 'text'],
  'begin_attempt, which counted attempts in flight as failures, is gone');

/** Deposit references already settled */

select tests.call_as('hard_player');
select app.request_deposit(700, 'upi', 'REF-9101-DONE');
select app.request_deposit(800, 'upi', 'REF-9102-FAIL');
select tests.as_webhook();
select app.complete_deposit('REF-9101-DONE', 700, 'success', 'GW-9101');
select app.complete_deposit('REF-9102-FAIL', 800, 'failed', 'GW-9102');
select tests.call_as('hard_player');
select throws_ok($$select app.request_deposit(700, 'upi', 'REF-9101-DONE')$$, 'BT409', 'Reference already used',
  'a completed reference cannot be requested again');
select throws_ok($$select app.request_deposit(800, 'upi', 'REF-9102-FAIL')$$, 'BT409', 'Reference already used',
  'a failed reference cannot be requested again');
select app.request_deposit(900, 'upi', 'REF-9103-PEND');
select is((select status::text from app.request_deposit(900, 'upi', 'REF-9103-PEND')), 'pending',
  'a pending reference is still the same deposit (a retry)');

/** A gateway success after a gateway failure (after an admin rejection: 20d-late-deposit-payment) */

select tests.as_webhook();
select throws_ok($$select app.complete_deposit('REF-9102-FAIL', 800, 'success', 'GW-9102b')$$, 'BT409',
  'Transaction already settled', 'a success after a gateway failure (no admin rejection) is still a conflict');

/** Usernames */

select tests.as_webhook();
select throws_ok(format($$select app.register_user(%L, 'h', 'Look Alike', 'lookalike@example.com', null, null)$$,
                        'hard' || chr(8203) || 'player'),
  'BT400', 'Username may contain only letters, digits, dots, hyphens and underscores', 'a zero-width space is refused');
select throws_ok(format($$select app.create_admin(%L, 'h', 'Root', null)$$, 'root' || chr(8238) || 'toor'),
  'BT400', 'Username may contain only letters, digits, dots, hyphens and underscores', 'an RTL override is refused for admins too');
select lives_ok($$select app.register_user('Hard.Name-ok_1', 'h', 'Fine Name', 'fine@example.com', null, null)$$,
  'letters, digits, dots, hyphens and underscores are fine');
select tests.reset_role();
select throws_ok($$insert into public.users (username, name, referral_code) values ('bad name', 'Bad Name', 'ZZZZ9999')$$,
  '23514', null, 'the table refuses other characters too (CHECK)');
select throws_ok(format('update public.users set wallet_balance = -1 where id = %s', tests.uid('hard_player')),
  '23514', null, 'the table refuses a negative wallet balance (CHECK), whatever the code path');

select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
