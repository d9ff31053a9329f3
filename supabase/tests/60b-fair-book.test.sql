-- The book cannot be beaten: each rule against a player or an insider who reads the rules, written as the
-- attempt to beat it. One side per player per match; bets paused for a stale live score; referral bonuses
-- paid only once the house's result on the referred player's settled bets reaches them, capped per referrer; a
-- second admin for large credits and a daily credit cap per admin; a self-exclusion that follows the person
-- (bank account, phone number, pending deposits). The latched close in play is in 60a-house-risk.
begin;
set local search_path = tests, public;
select plan(68);

select tests.create_admin('boss');
select tests.create_admin('second');
select tests.create_user('hedger', 20000);
select tests.create_user('other', 20000);
select tests.create_match('live', 1, 2) as m \gset

/** One side per player per match: acting as a player who backs both teams */

select tests.call_as('hedger');
select lives_ok(format('select app.place_bet(%s, 1, 5000)', :m), 'a player backs Mumbai Indians');
select throws_ok(format('select app.place_bet(%s, 2, 5000)', :m), 'BT409',
  'You have already backed Mumbai Indians in this match', 'a bet on the other team of the match is refused, naming the side backed');
select tests.reset_role();
select is(tests.balance('hedger'), 15000::bigint, 'the refused bet moved nothing');
select is((select count(*)::int from public.bets where user_id = tests.uid('hedger')), 1, 'and wrote no bet');
select is((select count(*)::int from public.transactions where user_id = tests.uid('hedger') and type = 'bet_placed'), 1,
  'and no ledger row');
select tests.call_as('hedger');
select lives_ok(format('select app.place_bet(%s, 1, 5000)', :m), 'more on the same side is welcome');
select is(app.match_position(:m), '{"team_id": 1, "staked": 10000}'::jsonb, 'the player''s position: the side and the stake');
select tests.call_as('other');
select is(app.match_position(:m), '{"team_id": null, "staked": 0}'::jsonb, 'a player with no bet on the match backs nobody');
select lives_ok(format('select app.place_bet(%s, 2, 5000)', :m), 'another player may back the other team');
select throws_ok('select app.match_position(999999999)', 'BT404', 'Match not found', 'a position needs a match');
select tests.call_as('tests_admin');
select app.declare_winner(:m, 2);
select tests.settle(:m);
select tests.reset_role();
select is(tests.balance('hedger'), 10000::bigint, 'so a backer of one side loses when the other wins: no certain profit');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

/** Stale live score: acting as a player with a faster score source than the back office */

select tests.create_match('live', 3, 4) as quiet \gset
select tests.reset_role();
update public.matches set live_updated_at = now() - interval '181 seconds' where id = :quiet;
select is((select betting_pauses_at from public.matches where id = :quiet), now() - interval '1 second',
  'bets pause 180 s after the last live update');
select tests.call_as('other');
select throws_ok(format('select app.place_bet(%s, 3, 1000)', :quiet), 'BT409',
  'Betting is paused until the live score is updated', 'a match whose live score is older than that takes no bet');
select tests.act_as_anon();
select is((select (app.match_json(m) ->> 'betting_pauses_at')::timestamptz from public.matches m where m.id = :quiet),
  now() - interval '1 second', 'the public answer says when bets pause');
select tests.call_as('tests_admin');
select app.update_live(:quiet, '12/0', null, null, null);
select tests.reset_role();
select is((select betting_pauses_at from public.matches where id = :quiet), now() + interval '180 seconds',
  'the next live update, even one that leaves out the over, moves the pause');
select results_eq(format('select current_innings, current_over from public.matches where id = %s', :quiet),
  $$values (1, 0.0::numeric(3,1))$$, 'and keeps the stored innings and over');
select tests.call_as('other');
select lives_ok(format('select app.place_bet(%s, 3, 1000)', :quiet), 'and reopens betting by itself');

select tests.create_match('upcoming', 5, 6) as late \gset
select tests.reset_role();
update public.matches set start_time = now() - interval '10 minutes' where id = :late;
select tests.call_as('other');
select throws_ok(format('select app.place_bet(%s, 5, 1000)', :late), 'BT409',
  'Betting is paused until the live score is updated', 'an upcoming match long past its start time that nobody started takes no bet');
select tests.reset_role();
update public.matches set start_time = now() - interval '1 minute' where id = :late;
select tests.call_as('other');
select lives_ok(format('select app.place_bet(%s, 5, 1000)', :late), 'one just past its start time still does');

select tests.reset_role();
update public.matches set start_time = now() - interval '10 minutes' where id = :late;
select version as late_version from public.matches where id = :late \gset
select tests.call_as('boss');
select throws_ok($$select app.update_risk_settings('{"live_feed_stale_seconds": 29}')$$, 'BT400',
  'Stale live score must be empty or between 30 and 3,600 seconds', 'the pause is at least 30 seconds');
select throws_ok($$select app.update_risk_settings('{"live_feed_stale_seconds": 3601}')$$, 'BT400',
  'Stale live score must be empty or between 30 and 3,600 seconds', 'and at most an hour');
select is(app.update_risk_settings('{"live_feed_stale_seconds": null}') #> '{settings,live_feed_stale_seconds}', 'null'::jsonb,
  'an admin may switch the pause off');
select tests.reset_role();
select results_eq(format('select betting_pauses_at, version from public.matches where id = %s', :late),
  format($$values (null::timestamptz, %s::bigint)$$, :late_version + 1), 'matches lose their pause, announced as a change');
select tests.call_as('other');
select lives_ok(format('select app.place_bet(%s, 5, 1000)', :late), 'and take bets again');
select tests.call_as('boss');
select app.update_risk_settings('{"live_feed_stale_seconds": 180}');

/** Referral bonus: acting as a referrer who farms accounts that deposit, withdraw and leave */

select tests.create_user('farmer');
select tests.create_user('shill', 0, (select referral_code from public.users where username = 'farmer'));
select tests.deposit('shill', 5000);
select tests.reset_role();
select is(tests.balance('farmer'), 0::bigint, 'a referred player''s first deposit pays nothing by itself');
select tests.call_as('shill');
select app.add_bank_account('Shill Player', '999988887777', 'SBIN0009999', 'State Bank');
select app.request_withdrawal(5000, (select id from public.bank_accounts where user_id = tests.uid('shill')));
select tests.call_as('boss');
select app.approve_transaction((select id from public.transactions where user_id = tests.uid('shill') and type = 'withdrawal'));
select tests.reset_role();
select is(tests.balance('farmer'), 0::bigint, 'nor do a deposit and its withdrawal');

select tests.create_user('friend', 0, (select referral_code from public.users where username = 'farmer'));
select tests.deposit('friend', 3000);
select tests.create_match('live', 7, 8) as ref1 \gset
select tests.call_as('friend');
select app.place_bet(:ref1, 7, 2000);
select tests.reset_role();
select is(tests.balance('farmer'), 0::bigint, 'stakes that are not settled yet do not count');
select tests.call_as('tests_admin');
select app.declare_winner(:ref1, 7);
select tests.settle(:ref1);
select tests.reset_role();
select is(tests.balance('farmer'), 0::bigint, 'a referred player who wins (the house: -₹4,000) earns the referrer nothing');
select tests.create_match('live', 9, 10) as ref2 \gset
select tests.call_as('friend');
select app.place_bet(:ref2, 9, 1000);
select tests.call_as('tests_admin');
select app.abandon_match(:ref2);
select tests.settle(:ref2);
select tests.reset_role();
select is(tests.balance('farmer'), 0::bigint, 'a refunded stake was never at risk: it does not count');
select tests.create_match('live', 9, 10) as ref3 \gset
select tests.call_as('friend');
select app.place_bet(:ref3, 9, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:ref3, 10);
select tests.settle(:ref3);
select tests.create_match('live', 9, 10) as ref5 \gset
select tests.call_as('friend');
select app.place_bet(:ref5, 9, 3099);
select tests.call_as('tests_admin');
select app.declare_winner(:ref5, 10);
select tests.settle(:ref5);
select tests.reset_role();
select is(tests.balance('farmer'), 0::bigint, 'losses that take the house''s result on the player only to ₹99 pay nothing');
select tests.create_match('live', 9, 10) as ref6 \gset
select tests.call_as('friend');
select app.place_bet(:ref6, 9, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:ref6, 10);
select tests.settle(:ref6);
select tests.reset_role();
select is(tests.balance('farmer'), 100::bigint,
  'once the house''s result on the player reaches the bonus (₹1,099 of ₹100), the referrer is paid');
select results_eq($$select count(*)::int, min(reference_id)::text from public.transactions
                    where user_id = tests.uid('farmer') and type = 'referral_bonus'$$,
  format($$values (1, 'REFERRAL-%s')$$, tests.uid('friend')), 'one referral_bonus row with the usual reference');
select tests.create_match('live', 7, 8) as ref4 \gset
select tests.call_as('friend');
select app.place_bet(:ref4, 7, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:ref4, 7);
select tests.settle(:ref4);
select tests.reset_role();
select is(tests.balance('farmer'), 100::bigint, 'and never a second time');

select tests.call_as('boss');
select app.update_risk_settings('{"referral_bonuses_per_month": 1}');
select tests.create_user('pal1', 0, (select referral_code from public.users where username = 'other'));
select tests.create_user('pal2', 0, (select referral_code from public.users where username = 'other'));
select tests.deposit('pal1', 1000);
select tests.deposit('pal2', 1000);
select tests.create_match('live', 1, 3) as cap \gset
select tests.call_as('pal1');
select app.place_bet(:cap, 1, 1000);
select tests.call_as('pal2');
select app.place_bet(:cap, 1, 1000);
select tests.reset_role();
select tests.balance('other') as other_before \gset
select tests.call_as('tests_admin');
select app.declare_winner(:cap, 3);
select tests.settle(:cap);
select tests.reset_role();
select is(tests.balance('other') - :other_before, 100::bigint, 'a referrer is paid at most referral_bonuses_per_month in 30 days');
select is((select count(*)::int from app.referrals where referrer_id = tests.uid('other') and paid_at is null
           and house_result >= 100), 1, 'the other bonus stays due');
update app.referrals set paid_at = now() - interval '31 days' where referrer_id = tests.uid('other') and paid_at is not null;
select tests.deposit('pal2', 1000);
select tests.create_match('live', 2, 4) as cap2 \gset
select tests.call_as('pal2');
select app.place_bet(:cap2, 2, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:cap2, 4);
select tests.settle(:cap2);
select tests.reset_role();
select is(tests.balance('other') - :other_before, 200::bigint,
  'and is paid at the referred player''s next settlement once the window has room');
select tests.call_as('boss');
select throws_ok($$select app.update_risk_settings('{"referral_bonuses_per_month": -1}')$$, 'BT400',
  'Referral bonuses per month must be between 0 and 1,000', 'the cap is not negative');
select app.update_risk_settings('{"referral_bonuses_per_month": 20}');
select tests.reset_role();
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

/** Four eyes on money an admin creates: acting as an insider who credits a friend */

select tests.create_user('friendly', 1000);
select tests.call_as('boss');
select results_eq($$select amount, status::text from app.admin_adjust_wallet(tests.uid('friendly'), 49999, 'small goodwill')$$,
  $$values (49999::bigint, 'completed')$$, 'a credit below ₹50,000 is applied at once');
select results_eq($$select amount, status::text, requested_by from app.admin_adjust_wallet(tests.uid('friendly'), 50000, 'big prize')$$,
  format($$values (50000::bigint, 'pending', %s::bigint)$$, tests.uid('boss')),
  'a credit of ₹50,000 is pending, with the admin who asked');
select tests.reset_role();
select is(tests.balance('friendly'), 50999::bigint, 'the pending credit moves no money');
select id as big from public.transactions where user_id = tests.uid('friendly') and status = 'pending' \gset
select tests.call_as('boss');
select throws_ok(format('select app.approve_transaction(%s)', :big), 'BT403',
  'A second administrator must approve this adjustment', 'the admin who asked cannot approve it');
select throws_ok(format('select app.reject_transaction(%s)', :big), 'BT403',
  'A second administrator must approve this adjustment', 'nor decide it the other way');
select tests.call_as('second');
select is((select status::text from app.approve_transaction(:big)), 'completed', 'another admin approves it');
select tests.reset_role();
select is(tests.balance('friendly'), 100999::bigint, 'and only then is it credited');
select results_eq(format($$select action::text, admin_id from public.audit_log
                           where (action = 'wallet.adjust_requested' and target_id = %s) or (action = 'transaction.approve' and target_id = %s)
                           order by id$$, tests.uid('friendly'), :big),
  format($$values ('wallet.adjust_requested', %s::bigint), ('transaction.approve', %s::bigint)$$, tests.uid('boss'), tests.uid('second')),
  'the request and the approval are audited with each admin');
select tests.call_as('boss');
select app.admin_adjust_wallet(tests.uid('friendly'), 60000, 'rejected prize');
select tests.call_as('second');
select is((select status::text from app.reject_transaction((select max(id) from public.transactions where requested_by = tests.uid('boss')))),
  'failed', 'another admin may reject it');
select tests.call_as('boss');
select is((select status::text from app.admin_adjust_wallet(tests.uid('friendly'), -60000, 'big debit')), 'completed',
  'debits are not money an admin creates: applied at once');
select app.update_risk_settings('{"admin_credit_per_day": 120000}');
-- credited in 24 hours: 49,999 + 50,000 (approved); the rejected 60,000 does not count
select throws_ok(format($$select app.admin_adjust_wallet(%s, 20002, 'over the cap')$$, tests.uid('friendly')), 'BT409',
  'Daily credit limit reached', 'an admin may not credit more than admin_credit_per_day in 24 hours');
select is((select status::text from app.admin_adjust_wallet(tests.uid('friendly'), 20001, 'to the cap')), 'completed',
  'up to it exactly');
select tests.call_as('second');
select is((select status::text from app.admin_adjust_wallet(tests.uid('friendly'), 50000, 'pending counts')), 'pending',
  'each admin has a cap of their own');
select app.update_risk_settings('{"admin_credit_per_day": 60000}');
select throws_ok(format($$select app.admin_adjust_wallet(%s, 10001, 'pending counted')$$, tests.uid('friendly')), 'BT409',
  'Daily credit limit reached', 'pending credits count towards the cap');
-- raising the cap again is a change for a second admin (40c-four-eyes)
select app.update_risk_settings('{"admin_credit_per_day": 500000}') #>> '{change,id}' as restore_cap \gset
select tests.call_as('boss');
select app.decide_settings_change(:restore_cap, true);
select tests.reset_role();
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

/** Exclusion follows the person: acting as a self-excluded player who tries again under another name */

select tests.as_webhook();
select app.register_user('quitter', 'hash', 'Quitting Player', 'quitter@example.test', '+91 98765 43210', null);
select tests.reset_role();
select tests.deposit('quitter', 2000);
select tests.call_as('quitter');
select app.add_bank_account('Quitting Player', '555566667777', 'HDFC0005555', 'HDFC Bank');
select app.request_deposit(1000, 'upi', 'REF-7001-QUIT');
select app.self_exclude(6);
select tests.reset_role();
select results_eq($$select t.status::text, a.action::text, a.admin_id from public.transactions t
                    join public.audit_log a on a.target_type = 'transaction' and a.target_id = t.id
                    where t.reference_id = 'REF-7001-QUIT'$$,
  $$values ('failed', 'deposit.failed_by_exclusion', null::bigint)$$, 'the pending deposit is failed when the exclusion starts');
select tests.as_webhook();
select is((select status::text from app.complete_deposit('REF-7001-QUIT', 1000, 'success', 'GW-7001')), 'completed',
  'a payment that still arrives is credited');
select tests.reset_role();
select is(tests.balance('quitter'), 3000::bigint, 'once');
select tests.call_as('quitter');
select is((select status::text from app.request_withdrawal(3000, (select id from public.bank_accounts where user_id = tests.uid('quitter'))))
  , 'pending', 'and can be withdrawn');

select tests.as_webhook();
select throws_ok($$select app.register_user('quitter2', 'hash', 'Same Person', 'quitter2@example.test', '09876543210', null)$$,
  'BT403', 'We can''t open an account with these details', 'the same phone number, written another way, opens no new account');
select lives_ok($$select app.register_user('newcomer', 'hash', 'New Player', 'newcomer@example.test', '+91 91111 22222', null)$$,
  'another number does');
select tests.call_as('other');
select throws_ok($$select app.add_bank_account('Same Person', '555566667777', 'hdfc0005555', 'HDFC Bank')$$, 'BT403',
  'This bank account cannot be used', 'the excluded player''s bank account cannot be added to another account');
select lives_ok($$select app.add_bank_account('Other Player', '555566667778', 'HDFC0005555', 'HDFC Bank')$$,
  'another account can');

select tests.create_user('rester', 2000);
select tests.call_as('rester');
select app.add_bank_account('Resting Player', '444455556666', 'ICIC0004444', 'ICICI Bank');
select app.request_deposit(1000, 'upi', 'REF-7002-REST');
select app.take_timeout(1);
select tests.call_as('other');
select throws_ok($$select app.add_bank_account('Other Player', '444455556666', 'ICIC0004444', 'ICICI Bank')$$, 'BT409',
  'This bank account is already in use', 'a timed-out player''s bank account is another account''s like any (10b-one-person)');
select tests.reset_role();
select is((select status::text from public.transactions where reference_id = 'REF-7002-REST'), 'pending',
  'and fails no pending deposit');

-- a deposit the exclusion could not fail (a webhook held it at that moment) stays pending: no admin completes it
select tests.create_user('racer', 0);
select tests.call_as('racer');
select app.request_deposit(1000, 'upi', 'REF-7003-RACE');
select tests.reset_role();
insert into public.protection_changes (user_id, changed_by, kind, requested_at, effective_at, ends_at)
values (tests.uid('racer'), tests.uid('racer'), 'self_exclusion', now(), now(), now() + interval '6 months');
select tests.call_as('boss');
select throws_ok($$select app.approve_transaction((select id from public.transactions where reference_id = 'REF-7003-RACE'))$$,
  'BT409', 'This player is self-excluded', 'an admin cannot approve a self-excluded player''s pending deposit');
select tests.reset_role();
select results_eq($$select status::text from public.transactions where reference_id = 'REF-7003-RACE'$$,
  $$values ('pending')$$, 'the refused approval changed nothing');
select is(tests.balance('racer'), 0::bigint, 'and credited nothing');

select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
