-- No insider alone on any money path, each rule written as the attempt of an admin acting alone: a deposit no
-- gateway confirmed and a withdrawal need two admins from adjustment_review_amount up, and every deposit an
-- admin approves counts against their daily credit cap; loosening the controls on admin money
-- (adjustment_review_amount, admin_credit_per_day) waits for a second admin, tightening applies at once.
begin;
set local search_path = tests, public;
select plan(55);

select tests.create_admin('alpha');
select tests.create_admin('beta');
select tests.create_user('crony', 0);
select tests.create_user('bystander', 0);
select tests.create_admin('gamma');
select tests.create_user('friend', 0);
select tests.create_user('wally', 60000);

/** Deposits no gateway confirmed: acting as an admin who approves a friend's unpaid deposits */

select tests.call_as('crony');
select app.request_deposit(100000, 'upi', 'REF-9001-UNPD');
select app.request_deposit(100000, 'upi', 'REF-9002-UNPD');
select tests.reset_role();
select id as unpaid1 from public.transactions where reference_id = 'REF-9001-UNPD' \gset
select id as unpaid2 from public.transactions where reference_id = 'REF-9002-UNPD' \gset
select tests.call_as('alpha');
select is((select status::text from app.approve_transaction(:unpaid1)), 'pending',
  'one admin''s approval of an unpaid deposit of ₹1,00,000 leaves it pending');
select is((select status::text from app.approve_transaction(:unpaid2)), 'pending', 'every time');
select is(app.second_admin_notice('deposit'), 'A second administrator must approve deposits of ₹50,000 or more',
  'the answer names the threshold from the setting');
select throws_ok(format('select app.approve_transaction(%s)', :unpaid1), 'BT403',
  'A second administrator must approve this deposit', 'the same admin again is refused');
select tests.reset_role();
select is(tests.balance('crony'), 0::bigint, 'the insider alone credited nothing');
select results_eq(format($$select action::text, admin_id from public.audit_log
                           where target_type = 'transaction' and target_id = %s order by id$$, :unpaid1),
  format($$values ('transaction.first_approval', %s::bigint)$$, tests.uid('alpha')), 'the first approval is audited');
select tests.call_as('beta');
select is((select status::text from app.approve_transaction(:unpaid1)), 'completed', 'a second admin completes it');
select tests.reset_role();
select is(tests.balance('crony'), 100000::bigint, 'and only then is it credited');
select results_eq(format($$select admin_id from app.transaction_approvals where transaction_id = %s order by approved_at, admin_id$$, :unpaid1),
  format($$values (%s::bigint), (%s::bigint)$$, least(tests.uid('alpha'), tests.uid('beta')), greatest(tests.uid('alpha'), tests.uid('beta'))),
  'both approvals are kept');
select tests.call_as('beta');
select is((select status::text from app.reject_transaction(:unpaid2)), 'failed', 'another admin may reject one instead');
select tests.as_webhook();
select is((select status::text from app.complete_deposit('REF-9002-UNPD', 100000, 'success', 'GW-9002')), 'completed',
  'a gateway''s proof of payment completes a deposit whatever the admins did');
select tests.reset_role();
select is(tests.balance('crony'), 200000::bigint, 'once');

select tests.call_as('crony');
select app.request_deposit(49999, 'upi', 'REF-9003-SMAL');
select tests.call_as('alpha');
select is((select status::text from app.approve_transaction((select id from public.transactions where reference_id = 'REF-9003-SMAL'))),
  'completed', 'a deposit below ₹50,000 needs one admin');

/** Deposits count against the approving admin's daily credit cap */

select tests.call_as('bystander');
select app.request_deposit(49999, 'upi', 'REF-91' || g || '-CAPS') from generate_series(10, 20) g;
select tests.call_as('gamma');
select is((select count(*)::int from generate_series(10, 19) g,
             app.approve_transaction((select id from public.transactions where reference_id = 'REF-91' || g || '-CAPS')) t
           where t.status = 'completed'), 10, 'an admin approves ten deposits of ₹49,999 (₹4,99,990)');
select throws_ok($$select app.approve_transaction((select id from public.transactions where reference_id = 'REF-9120-CAPS'))$$,
  'BT409', 'Daily credit limit reached', 'an eleventh would pass admin_credit_per_day');
select throws_ok(format($$select app.admin_adjust_wallet(%s, 11, 'over')$$, tests.uid('bystander')), 'BT409',
  'Daily credit limit reached', 'approved deposits and credits share one cap');
select is((select status::text from app.admin_adjust_wallet(tests.uid('bystander'), 10, 'to the cap')), 'completed',
  'up to it exactly');
select tests.call_as('beta');
select is((select status::text from app.approve_transaction((select id from public.transactions where reference_id = 'REF-9120-CAPS'))),
  'completed', 'each admin has a cap of their own');
select tests.reset_role();
select is(tests.balance('bystander'), 549999::bigint, 'what was approved, and nothing refused');

/** Withdrawals: acting as an admin who releases a large withdrawal alone */

select tests.call_as('wally');
select id as wally_acct from app.add_bank_account('Wally Player', '601234567890', 'SBIN0006012', 'State Bank') \gset
select id as big_out from app.request_withdrawal(50000, :wally_acct) \gset
select id as small_out from app.request_withdrawal(5000, :wally_acct) \gset
select tests.call_as('alpha');
select is((select status::text from app.approve_transaction(:big_out)), 'pending',
  'one admin''s approval of a withdrawal of ₹50,000 leaves it pending');
select is(app.second_admin_notice('withdrawal'), 'A second administrator must approve withdrawals of ₹50,000 or more',
  'the answer names the threshold');
select throws_ok(format('select app.approve_transaction(%s)', :big_out), 'BT403',
  'A second administrator must approve this withdrawal', 'the same admin again is refused');
select tests.reset_role();
select is(tests.balance('wally'), 60000::bigint, 'nothing is debited yet');
select tests.call_as('beta');
select is((select status::text from app.approve_transaction(:big_out)), 'completed', 'a second admin releases it');
select tests.reset_role();
select is(tests.balance('wally'), 10000::bigint, 'and only then is it debited');
select tests.call_as('alpha');
select is((select status::text from app.approve_transaction(:small_out)), 'completed', 'a smaller one needs one admin');
select tests.reset_role();
select is(tests.balance('wally'), 5000::bigint, 'and is debited at once');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

/** Settings: acting as an admin who raises the controls on their own credits */

select tests.call_as('alpha');
select app.update_risk_settings('{"adjustment_review_amount": 100000}') as raised \gset
select is(:'raised'::jsonb #>> '{settings,adjustment_review_amount}', '50000',
  'raising the second-approval threshold is not applied');
select is(:'raised'::jsonb #> '{change,changes}', '{"adjustment_review_amount": 100000}',
  'it is a pending change with the value asked for');
select is(:'raised'::jsonb #> '{change,previous}', '{"adjustment_review_amount": 50000}',
  'and the value it would replace');
select is(:'raised'::jsonb #>> '{change,status}', 'pending', 'waiting for a second admin');
select (:'raised'::jsonb #>> '{change,id}')::bigint as review_change \gset
select app.update_risk_settings('{"admin_credit_per_day": 100000000}') as cap \gset
select is(:'cap'::jsonb #>> '{settings,admin_credit_per_day}', '500000', 'raising the daily credit cap is not applied either');
select (:'cap'::jsonb #>> '{change,id}')::bigint as cap_change \gset

select is((select status::text from app.admin_adjust_wallet(tests.uid('friend'), 99999, 'bonus')), 'pending',
  'so a credit of ₹99,999 still waits for a second admin');
select throws_ok(format('select app.decide_settings_change(%s, true)', :review_change), 'BT403',
  'A second administrator must approve this change', 'the admin who proposed a change cannot approve it');
select tests.reset_role();
select is(tests.balance('friend'), 0::bigint, 'the insider alone moved no money');
select is((select value from app.settings where key = 'adjustment_review_amount'), '50000'::jsonb,
  'and changed no setting');
select results_eq(format($$select action::text, admin_id, before, after from public.audit_log
                           where target_type = 'settings_change' and target_id = %s$$, :review_change),
  format($$values ('settings.change_proposed', %s::bigint, '{"adjustment_review_amount": 50000}'::jsonb,
                   '{"adjustment_review_amount": 100000}'::jsonb)$$, tests.uid('alpha')),
  'the proposal is audited');

select tests.call_as('alpha');
select is(app.update_risk_settings('{"max_stake_per_bet": 60000, "admin_credit_per_day": 600000}') #> '{settings,max_stake_per_bet}',
  '60000', 'a request that also changes other settings applies those at once');
select is(jsonb_array_length(app.pending_settings_changes()), 3, 'and keeps the loosening pending beside the others');
select is(app.pending_settings_changes() -> 0 -> 'changes', '{"admin_credit_per_day": 600000}',
  'the pending changes are listed newest first');
select is(app.update_risk_settings('{"adjustment_review_amount": 50000}') -> 'change', 'null',
  'the value in force again is no change');
select ok((app.update_risk_settings('{"adjustment_review_amount": 40000, "admin_credit_per_day": 400000}') -> 'settings')
            @> '{"adjustment_review_amount": 40000, "admin_credit_per_day": 400000}', 'tightening both applies at once');

/** Settings: acting as the second admin */

select tests.call_as('friend');
select throws_ok(format('select app.decide_settings_change(%s, true)', :review_change), 'BT403',
  'Admin access required', 'a player cannot decide a settings change');
select tests.call_as('beta');
select is(app.decide_settings_change(:review_change, true) ->> 'status', 'approved', 'another admin approves it');
select is((app.get_risk_settings()).adjustment_review_amount, 100000::bigint, 'and only then does it apply');
select throws_ok(format('select app.decide_settings_change(%s, false)', :review_change), 'BT409',
  'This change has already been decided', 'a decided change is not decided again');
select is(app.decide_settings_change(:cap_change, false) ->> 'status', 'rejected', 'another admin may reject one');
select is((app.get_risk_settings()).admin_credit_per_day, 400000::bigint, 'which then never applies');
select throws_ok('select app.decide_settings_change(999999999, true)', 'BT404', 'Settings change not found',
  'an unknown change');
select tests.call_as('alpha');
select is(app.decide_settings_change((app.pending_settings_changes() -> 0 ->> 'id')::bigint, false) ->> 'status', 'rejected',
  'the proposer may withdraw their own change');
select is(app.pending_settings_changes(), '[]'::jsonb, 'nothing is left pending');
select tests.reset_role();
select results_eq(format($$select action::text, admin_id from public.audit_log
                           where (target_type = 'settings_change' and target_id = %s) or (action = 'settings.update' and admin_id = %s)
                           order by id$$, :review_change, tests.uid('beta')),
  format($$values ('settings.change_proposed', %s::bigint), ('settings.update', %s::bigint),
                  ('settings.change_approved', %s::bigint)$$, tests.uid('alpha'), tests.uid('beta'), tests.uid('beta')),
  'the approval is audited with the settings it applied, under the second admin');
select throws_ok($$insert into app.settings_changes (proposed_by, changes, previous, status, decided_by, decided_at)
                   values (1, '{}', '{}', 'approved', 1, now())$$, '23514', null,
  'no row can say an admin approved their own change');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
