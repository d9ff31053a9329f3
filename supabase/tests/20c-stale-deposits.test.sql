-- Stale deposits (20_wallet.sql): app.fail_stale_deposits fails only pending deposits
-- older than its window, each with an audit row, and moves no money.
begin;
set local search_path = tests, public;
select plan(16);

select tests.create_user('stale_player', 2000);
select tests.call_as('stale_player');
select app.request_deposit(700, 'upi', 'REF-9300-OLDD');    -- backdated 25 hours below: stale
select app.request_deposit(800, 'upi', 'REF-9301-NEWD');    -- backdated 23 hours: inside the window
select app.request_deposit(900, 'upi', 'REF-9302-NOWD');    -- just made
select app.add_bank_account('Stale Player', '123456789', 'HDFC0001234', 'HDFC Bank');
select app.request_withdrawal(500, (select id from public.bank_accounts where user_id = tests.uid('stale_player')));
select tests.reset_role();

-- Setup only (no money moves): how long ago each row was made.
update public.transactions set created_at = now() - interval '25 hours' where reference_id = 'REF-9300-OLDD';
update public.transactions set created_at = now() - interval '23 hours' where reference_id = 'REF-9301-NEWD';
update public.transactions set created_at = now() - interval '30 days'
  where user_id = tests.uid('stale_player') and (type = 'withdrawal' or status = 'completed');
select count(*) as ledger_rows from public.transactions \gset

/** acting as the scheduler */

select tests.as_webhook();
select is(app.fail_stale_deposits(interval '24 hours', now()), 1, 'one deposit is older than 24 hours');
select tests.reset_role();
select results_eq($$select reference_id::text, status::text from public.transactions
                    where user_id = tests.uid('stale_player') and type = 'deposit' and status <> 'completed' order by id$$,
  $$values ('REF-9300-OLDD', 'failed'), ('REF-9301-NEWD', 'pending'), ('REF-9302-NOWD', 'pending')$$,
  'only the deposit older than the window is failed');
select is((select status::text from public.transactions where user_id = tests.uid('stale_player') and type = 'withdrawal'),
  'pending', 'a month-old pending withdrawal is not a deposit: untouched');
select is((select count(*)::int from public.transactions where user_id = tests.uid('stale_player') and type = 'deposit' and status = 'completed'),
  1, 'old completed deposits stay completed');
select results_eq($$select admin_id, before - 'created_at', after from public.audit_log
                    where action = 'deposit.expired' and target_type = 'transaction'
                      and target_id = (select id from public.transactions where reference_id = 'REF-9300-OLDD')$$,
  $$values (null::bigint, '{"status": "pending"}'::jsonb, '{"status": "failed", "no_answer_for": "24:00:00"}'::jsonb)$$,
  'one audit row, by no admin, says it expired after 24 hours without an answer');

/** no money moves */

select is(tests.balance('stale_player'), 2000::bigint, 'the wallet balance is unchanged');
select is((select count(*) from public.transactions), :ledger_rows::bigint, 'no ledger row is added');
select is(tests.reconcile_count(), 0::bigint, 'reconcile is empty');

/** again, and with other windows */

select tests.as_webhook();
select is(app.fail_stale_deposits(interval '24 hours', now()), 0, 'a second run finds nothing new');
select is(app.fail_stale_deposits(interval '24 hours', now() + interval '2 hours'), 1,
  'two hours later the 23-hour-old deposit is stale too');
select is(app.fail_stale_deposits(interval '5 minutes', now() + interval '1 minute'), 0,
  'a deposit made a minute ago is inside a 5-minute window');
select is(app.fail_stale_deposits(interval '1 second', now() + interval '1 minute'), 1, 'the window is a parameter');
select tests.reset_role();
select is((select count(*)::int from public.audit_log where action = 'deposit.expired'
           and target_id in (select id from public.transactions where user_id = tests.uid('stale_player'))), 3,
  'one audit row per failed deposit');
select is(tests.balance('stale_player'), 2000::bigint, 'still no money moved');

/** who may call it */

select tests.as_webhook();
select throws_ok($$select app.fail_stale_deposits(interval '0', now())$$, 'BT400', 'Invalid window', 'the window must be positive');
select tests.act_as('stale_player');
select throws_ok($$select app.fail_stale_deposits()$$, '42501', null, 'a signed-in player cannot run it');

select * from finish();
rollback;
