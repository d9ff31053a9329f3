-- No insider alone on any money path, each rule written as the attempt of an admin acting alone: loosening
-- the controls on admin money (adjustment_review_amount, admin_credit_per_day) waits for a second admin,
-- tightening applies at once.
begin;
set local search_path = tests, public;
select plan(27);

select tests.create_admin('alpha');
select tests.create_admin('beta');
select tests.create_user('crony', 0);
select tests.create_user('bystander', 0);

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

select is((select status::text from app.admin_adjust_wallet(tests.uid('crony'), 99999, 'bonus')), 'pending',
  'so a credit of ₹99,999 still waits for a second admin');
select throws_ok(format('select app.decide_settings_change(%s, true)', :review_change), 'BT403',
  'A second administrator must approve this change', 'the admin who proposed a change cannot approve it');
select tests.reset_role();
select is(tests.balance('crony'), 0::bigint, 'the insider alone moved no money');
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

select tests.call_as('crony');
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
