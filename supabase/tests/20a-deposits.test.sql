-- Deposits: request (limits, method, reference, idempotency) and completion by the gateway webhook
-- (credit once, replay, failure, conflicts), referral bonus on the first completed deposit.
begin;
set local search_path = tests, public;
select plan(41);

select tests.create_user('payer');
select tests.create_user('other');

/** Request: limits at their boundaries */

select tests.call_as('payer');
select throws_ok($$select app.request_deposit(499, 'upi', 'REF-1-AAAA')$$,
  'BT400', 'Minimum deposit amount is ₹500', '499 is below the minimum');
select is((select amount from app.request_deposit(500, 'upi', 'REF-1-AAAB')), 500::bigint, '500 is accepted');
select is((select amount from app.request_deposit(100000, 'UPI', 'REF-1-AAAC')), 100000::bigint, '100000 is accepted');
select throws_ok($$select app.request_deposit(100001, 'upi', 'REF-1-AAAD')$$,
  'BT400', 'Maximum deposit amount is ₹100,000', '100001 is above the maximum');
select throws_ok($$select app.request_deposit(null, 'upi', 'REF-1-AAAD')$$,
  'BT400', 'Minimum deposit amount is ₹500', 'an amount is required');
select throws_ok($$select app.request_deposit(1000, null, 'REF-1-AAAD')$$,
  'BT400', 'Please select a payment method', 'a payment method is required');
select throws_ok($$select app.request_deposit(1000, '  ', 'REF-1-AAAD')$$,
  'BT400', 'Please select a payment method', 'a blank payment method is refused');
select throws_ok($$select app.request_deposit(1000, 'card', 'REF-1-AAAD')$$,
  'BT400', 'Only UPI payments are supported', 'only UPI');
select throws_ok($$select app.request_deposit(1000, 'upi', 'REF-1-aaaa')$$,
  'BT400', 'Invalid reference', 'reference letters are upper case');
select throws_ok($$select app.request_deposit(1000, 'upi', 'REF-X-AAAA')$$,
  'BT400', 'Invalid reference', 'reference timestamp is digits');
select throws_ok($$select app.request_deposit(1000, 'upi', null)$$,
  'BT400', 'Invalid reference', 'a reference is required');

select tests.reset_role();
select results_eq($$select amount, status::text, payment_method::text, type::text from public.transactions
                    where reference_id = 'REF-1-AAAC'$$,
  $$values (100000::bigint, 'pending', 'upi', 'deposit')$$, 'a pending UPI deposit is stored (method stored lower-case)');
select is(tests.balance('payer'), 0::bigint, 'a pending deposit credits nothing');

/** Request: idempotent on the reference */

select tests.call_as('payer');
select is((select id from app.request_deposit(500, 'upi', 'REF-1-AAAB')),
  (select id from public.transactions where reference_id = 'REF-1-AAAB'), 'the same reference again returns the same row');
select throws_ok($$select app.request_deposit(600, 'upi', 'REF-1-AAAB')$$,
  'BT409', 'Reference already used', 'the same reference with another amount is a conflict');
select tests.call_as('other');
select throws_ok($$select app.request_deposit(500, 'upi', 'REF-1-AAAB')$$,
  'BT409', 'Reference already used', 'another user''s reference is a conflict');
select tests.reset_role();
select is((select count(*)::int from public.transactions where reference_id = 'REF-1-AAAB'), 1, 'still one row');

/** Completion by the webhook */

select tests.as_webhook();
select throws_ok($$select app.complete_deposit('REF-9-NONE', 500, 'success', 'GW-1')$$,
  'BT404', 'Unknown reference', 'an unknown reference is 404');
select throws_ok($$select app.complete_deposit('REF-1-AAAC', 99999, 'success', 'GW-1')$$,
  'BT409', 'Amount mismatch', 'an amount below the stored one is refused');
select throws_ok($$select app.complete_deposit('REF-1-AAAC', 100001, 'success', 'GW-1')$$,
  'BT409', 'Amount mismatch', 'an amount above the stored one is refused');
select throws_ok($$select app.complete_deposit('REF-1-AAAC', 100000, 'paid', 'GW-1')$$,
  'BT400', 'Invalid status', 'status is success or failed');
select is((select status::text from app.complete_deposit('REF-1-AAAC', 100000, 'success', 'GW-1')), 'completed',
  'success completes the deposit');
select tests.reset_role();
select is(tests.balance('payer'), 100000::bigint, 'and credits the stored amount');
select tests.as_webhook();
select is((select status::text from app.complete_deposit('REF-1-AAAC', 100000, 'success', 'GW-1')), 'completed',
  'a replay of the applied event returns the row');
select tests.reset_role();
select is(tests.balance('payer'), 100000::bigint, 'a replay credits nothing more');
select is((select count(*)::int from public.transactions where user_id = tests.uid('payer') and status = 'completed'), 1,
  'one completed ledger row');
select tests.as_webhook();
select throws_ok($$select app.complete_deposit('REF-1-AAAC', 100000, 'failed', 'GW-1')$$,
  'BT409', 'Transaction already settled', 'a conflicting event on a settled deposit is refused');
select throws_ok($$select app.complete_deposit('REF-1-AAAB', 500, 'success', 'GW-1')$$,
  'BT409', 'Duplicate gateway transaction', 'one gateway transaction cannot complete two deposits');

select is((select status::text from app.complete_deposit('REF-1-AAAB', 500, 'failed', 'GW-2')), 'failed',
  'failed marks the deposit failed');
select is((select status::text from app.complete_deposit('REF-1-AAAB', 500, 'failed', 'GW-2')), 'failed',
  'a replayed failure is accepted unchanged');
select throws_ok($$select app.complete_deposit('REF-1-AAAB', 500, 'success', 'GW-2')$$,
  'BT409', 'Transaction already settled', 'a failed deposit cannot succeed later');
select tests.reset_role();
select is(tests.balance('payer'), 100000::bigint, 'a failed deposit credits nothing');

/** Status of the depositor */

update public.users set status = 'suspended' where username = 'other';
select tests.call_as('other');
select throws_ok($$select app.request_deposit(1000, 'upi', 'REF-2-AAAA')$$,
  'BT403', 'Your account is suspended', 'a suspended user cannot deposit');
select tests.reset_role();
update public.users set status = 'banned' where username = 'other';
select tests.call_as('other');
select throws_ok($$select app.request_deposit(1000, 'upi', 'REF-2-AAAA')$$,
  'BT403', 'Your account is banned', 'a banned user cannot deposit');
select tests.reset_role();
select throws_ok($$select app.request_deposit(1000, 'upi', 'REF-2-AAAA')$$,
  'BT401', 'Authentication required', 'without claims there is no caller');

/** Referral bonus: paid once the house's result on the referred user's settled bets reaches it (60b-fair-book) */

select tests.create_user('referred', 0, (select referral_code from public.users where username = 'payer'));
select tests.deposit('referred', 700);
select is(tests.balance('payer'), 100000::bigint, 'a first deposit alone pays the referrer nothing');
select tests.deposit('referred', 800);
select tests.create_match('live', 1, 2) as ref_match \gset
select tests.call_as('referred');
select app.place_bet(:ref_match, 2, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:ref_match, 1);
select tests.settle(:ref_match);
select tests.reset_role();
select is(tests.balance('payer'), 100100::bigint, 'once the house has made the bonus on the referred player (a lost 1000), the referrer gets 100');
select results_eq($$select amount, status::text, reference_id::text from public.transactions
                    where user_id = tests.uid('payer') and type = 'referral_bonus'$$,
  format($$values (100::bigint, 'completed', 'REFERRAL-%s')$$, tests.uid('referred')), 'as a referral_bonus ledger row');
select tests.deposit('referred', 1000);
select tests.create_match('live', 3, 4) as ref_match2 \gset
select tests.call_as('referred');
select app.place_bet(:ref_match2, 3, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:ref_match2, 3);
select tests.settle(:ref_match2);
select tests.reset_role();
select is(tests.balance('payer'), 100100::bigint, 'more deposits and stakes pay no second bonus');
select tests.create_user('referred2', 0, (select referral_code from public.users where username = 'payer'));
select tests.call_as('referred2');
select app.request_deposit(600, 'upi', 'REF-3-FAIL');
select tests.as_webhook();
select app.complete_deposit('REF-3-FAIL', 600, 'failed', 'GW-3-FAIL');
select tests.deposit('referred2', 700);
select tests.reset_role();
select is((select house_result from app.referrals where user_id = tests.uid('referred2')), 0::bigint,
  'deposits, completed or failed, are not what the house made on a player');

select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
