-- A gateway success for a deposit an admin already rejected (20_wallet.sql): the
-- money arrived, so the deposit is completed and credited once (paying a referrer nothing, like any
-- deposit), and has an audit row naming the rejection; replays move nothing; another gateway id stays a 409.
begin;
set local search_path = tests, public;
select plan(20);

select tests.create_admin('late_admin');
select tests.create_user('late_referrer');
select tests.create_user('late_player', 0, (select referral_code from public.users where username = 'late_referrer'));

select tests.call_as('late_player');
select app.request_deposit(2500, 'upi', 'REF-9200-LATE');
select tests.call_as('late_admin');
select app.reject_transaction((select id from public.transactions where reference_id = 'REF-9200-LATE'));
select tests.reset_role();
select id as late_tx from public.transactions where reference_id = 'REF-9200-LATE' \gset
select id as rejection_id, created_at as rejected_at from public.audit_log
  where action = 'transaction.reject' and target_id = :late_tx \gset
select is(tests.balance('late_player'), 0::bigint, 'the rejected deposit credited nothing');

/** acting as the gateway: the late success credits it */

select tests.as_webhook();
select is((select status::text from app.complete_deposit('REF-9200-LATE', 2500, 'success', 'GW-9200')), 'completed',
  'a success after the rejection completes the deposit');
select tests.reset_role();
select is(tests.balance('late_player'), 2500::bigint, 'the wallet is credited the stored amount');
select results_eq(format($$select status::text, gateway_txn_id::text, amount from public.transactions where id = %s$$, :late_tx),
  $$values ('completed', 'GW-9200', 2500::bigint)$$, 'the ledger row is completed with the gateway id');
select is(tests.balance('late_referrer'), 0::bigint,
  'it pays the referrer nothing, as no deposit does: only what the house makes on settled bets');
select results_eq(format($$select admin_id, before, after from public.audit_log
                           where action = 'deposit.paid_after_rejection' and target_type = 'transaction' and target_id = %s$$, :late_tx),
  format($$values (null::bigint, %L::jsonb, '{"status": "completed", "gateway_txn_id": "GW-9200", "amount": 2500}'::jsonb)$$,
         jsonb_build_object('status', 'failed', 'rejection_audit_id', :rejection_id, 'failed_by', 'transaction.reject',
                            'rejected_by', tests.uid('late_admin'), 'rejected_at', :'rejected_at'::timestamptz)),
  'one audit row names the rejection it overrides (its audit row, admin and time)');

/** replays and conflicts */

select tests.as_webhook();
select is((select status::text from app.complete_deposit('REF-9200-LATE', 2500, 'success', 'GW-9200')), 'completed',
  'the gateway''s retry is answered');
select is((select status::text from app.complete_deposit('REF-9200-LATE', 2500, 'success', null)), 'completed',
  'a retry without a gateway id too');
select throws_ok($$select app.complete_deposit('REF-9200-LATE', 2500, 'success', 'GW-9200-OTHER')$$, 'BT409',
  'Transaction already settled', 'another gateway id for the same deposit is refused');
select throws_ok($$select app.complete_deposit('REF-9200-LATE', 2500, 'failed', 'GW-9200')$$, 'BT409',
  'Transaction already settled', 'a failure after the credit is refused');
select tests.reset_role();
select is(tests.balance('late_player'), 2500::bigint, 'replays moved nothing');
select is(tests.balance('late_referrer'), 0::bigint, 'nor the referrer''s');
select is((select count(*)::int from public.audit_log where action = 'deposit.paid_after_rejection' and target_id = :late_tx), 1,
  'replays add no audit rows');

/** a gateway id already used by another deposit */

select tests.call_as('late_player');
select app.request_deposit(600, 'upi', 'REF-9201-LATE');
select tests.call_as('late_admin');
select app.reject_transaction((select id from public.transactions where reference_id = 'REF-9201-LATE'));
select tests.as_webhook();
select throws_ok($$select app.complete_deposit('REF-9201-LATE', 600, 'success', 'GW-9200')$$, 'BT409',
  'Duplicate gateway transaction', 'a late success reusing another deposit''s gateway id is refused');

/** a payment confirmed after the stale-deposit job expired the deposit (20261122100000) is credited too */

select tests.call_as('late_player');
select app.request_deposit(800, 'upi', 'REF-9203-LATE');
select tests.as_webhook();
select app.fail_stale_deposits(interval '24 hours', now() + interval '25 hours');
select tests.reset_role();
select is((select status::text from public.transactions where reference_id = 'REF-9203-LATE'), 'failed', 'the deposit expired');
select tests.as_webhook();
select is((select status::text from app.complete_deposit('REF-9203-LATE', 800, 'success', 'GW-9203')), 'completed',
  'a success after the expiry completes it');
select tests.reset_role();
select is(tests.balance('late_player'), 3300::bigint, 'and credits it once');

/** a late payment the previous rule recorded without crediting stays with the admins */

select tests.call_as('late_player');
select app.request_deposit(700, 'upi', 'REF-9202-LATE');
select tests.call_as('late_admin');
select app.reject_transaction((select id from public.transactions where reference_id = 'REF-9202-LATE'));
select tests.reset_role();
insert into public.audit_log (admin_id, action, target_type, target_id, before, after)
select null, 'deposit_paid_after_rejection', 'transaction', id, '{"status": "failed"}', '{"gateway_txn_id": "GW-9202", "amount": 700}'
from public.transactions where reference_id = 'REF-9202-LATE';
select tests.as_webhook();
select is((select status::text from app.complete_deposit('REF-9202-LATE', 700, 'success', 'GW-9202')), 'failed',
  'it is answered without crediting (the admins may already have credited it by adjustment)');
select tests.reset_role();
select is(tests.balance('late_player'), 3300::bigint, 'nothing more is credited');

select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
