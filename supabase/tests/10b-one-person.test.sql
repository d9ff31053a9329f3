-- One person, one account, each rule written as the attempt of someone who wants a second account: a bank
-- account and a phone number belong to one account (written any way); the duplicates that existed before the
-- rule are kept outside it; an exclusion binds every account linked by a bank account or a phone number from
-- the moment it starts, and nothing lifts it; admins see linked accounts (a device too) and may apply an
-- exclusion to a device-linked one; a referral ring between linked accounts earns nothing.
begin;
set local search_path = tests, public;
select plan(56);

select tests.create_user('first', 0);
select tests.create_user('second', 0);

/** Bank accounts: acting as a second account of the same person */

select tests.call_as('first');
select lives_ok($$select app.add_bank_account('First Player', '0012-3456-7890', 'HDFC0001234', 'HDFC Bank')$$,
  'a player adds their bank account');
select throws_ok($$select app.add_bank_account('First Player', '1234567890', 'hdfc0001234', 'HDFC Bank')$$, 'BT409',
  'Bank account already added', 'the same account written another way is theirs already');
select tests.call_as('second');
select throws_ok($$select app.add_bank_account('Second Player', '0012345 67890', 'HDFC0001234', 'HDFC Bank')$$, 'BT409',
  'This bank account is already in use', 'another account cannot add it, however it is written');
select lives_ok($$select app.add_bank_account('Second Player', '0012-3456-7890', 'HDFC0009999', 'HDFC Bank')$$,
  'the same number at another branch is another bank account');
select tests.reset_role();
select is((select count(*)::int from public.bank_accounts where app.bank_account_key(account_number, ifsc_code) = 'HDFC0001234:1234567890'),
  1, 'one account holds it');
select throws_ok(format($$insert into public.bank_accounts (user_id, account_holder, account_number, ifsc_code, bank_name)
                          values (%s, 'Second Player', '1234567890', 'HDFC0001234', 'HDFC Bank')$$, tests.uid('second')),
  '23505', null, 'no code path can give it to a second account');

/** Phone numbers: acting as a second registration of the same person */

select tests.as_webhook();
select lives_ok($$select app.register_user('caller1', 'hash', 'Phone Owner', 'caller1@example.test', '+91 98111 22233', null)$$,
  'a player registers with a phone number');
select throws_ok($$select app.register_user('caller2', 'hash', 'Same Person', 'caller2@example.test', '09811122233', null)$$,
  'BT409', 'This phone number is already in use', 'the same number written another way opens no second account');
select lives_ok($$select app.register_user('caller3', 'hash', 'No Phone', 'caller3@example.test', null, null)$$,
  'an account without a phone number is not refused for it');
select tests.call_as('caller3');
select throws_ok($$select app.update_profile('{"phone": "98111-22233"}')$$, 'BT409', 'This phone number is already in use',
  'nor can an account change to a number another has');
select is((select phone::text from app.update_profile('{"phone": "+91 97000 00001", "name": "New Name"}')), '+91 97000 00001',
  'a number nobody has is taken');
select tests.call_as('caller1');
select is((select phone::text from app.update_profile('{"phone": "9811122233"}')), '9811122233',
  'an account may write its own number another way');
select is((select phone from app.update_profile('{"phone": ""}')), null, 'or remove it');
select tests.as_webhook();
select lives_ok($$select app.register_user('caller4', 'hash', 'Next Owner', 'caller4@example.test', '+919811122233', null)$$,
  'then the number is free for another account');
select tests.call_as('caller3');
select throws_ok($$select app.update_profile('{"name": "x"}')$$, 'BT400', 'Name must be at least 2 characters',
  'a name is at least 2 characters');
select is((select name::text from app.update_profile('{"name": "Kept Phone"}')), 'Kept Phone', 'a name change keeps the number');
select tests.reset_role();
select is((select phone::text from public.users where username = 'caller3'), '+91 97000 00001', 'as it was');

/** The duplicates that existed before the rule */

select tests.reset_role();
update public.users set phone = '+91 97000 00001', phone_kept_duplicate = true where username = 'first';
select is((select count(*)::int from public.users where app.phone_key(phone) = '9700000001'), 2,
  'a duplicate from before the rule is kept beside the account it shares the number with');
select tests.call_as('first');
select is((select phone_kept_duplicate from app.update_profile('{"phone": "+91 97000 00002"}')), false,
  'once it changes its number, the new one is under the rule');
select tests.call_as('second');
select throws_ok($$select app.update_profile('{"phone": "+91 97000 00002"}')$$, 'BT409', 'This phone number is already in use',
  'like any other');

/** An exclusion follows the person: acting as a player with second accounts from before the rule */

select tests.create_admin('warden');
select tests.as_webhook();
select app.register_user('ex_a', 'hash', 'Excluded Player', 'ex_a@example.test', '+91 90000 11111', null);
select tests.reset_role();
select tests.deposit('ex_a', 5000);
select tests.create_user('ex_b', 5000);
select tests.create_user('ex_c', 5000);
select tests.create_user('bystander', 5000);
update public.users set phone = '09000011111', phone_kept_duplicate = true where username = 'ex_b';
select tests.call_as('ex_a');
select app.add_bank_account('Excluded Player', '770011223344', 'SBIN0007700', 'State Bank');
select tests.reset_role();
insert into public.bank_accounts (user_id, account_holder, account_number, ifsc_code, bank_name, kept_duplicate)
values (tests.uid('ex_c'), 'Excluded Player', '770011223344', 'SBIN0007700', 'State Bank', true);
select app.create_session(tests.uid('ex_b'), repeat('b', 64), null, null, null);
select tests.call_as('ex_b');
select app.request_deposit(1000, 'upi', 'REF-9301-LINK');
select tests.create_match('live', 5, 6) as em \gset

select tests.call_as('ex_a');
select app.self_exclude(6) ->> 'self_excluded_until' as ex_until \gset
select tests.reset_role();
select id as ex_change from public.protection_changes where user_id = tests.uid('ex_a') and kind = 'self_exclusion' \gset
select format('Self-exclusion: You cannot bet or deposit until %s.', app.format_ist(:'ex_until'::timestamptz)) as ex_refusal \gset
select tests.call_as('ex_a');
select throws_like(format('select app.place_bet(%s, 5, 1000)', :em), 'Self-exclusion: You cannot bet or deposit until %',
  'the excluded player cannot bet');
select tests.call_as('ex_b');
select throws_ok(format('select app.place_bet(%s, 5, 1000)', :em), 'BT403',
  :'ex_refusal',
  'nor can the account sharing their phone number: the same 403');
select throws_ok($$select app.request_deposit(1000, 'upi', 'REF-9302-LINK')$$, 'BT403',
  :'ex_refusal',
  'nor deposit');
select tests.call_as('ex_c');
select throws_ok(format('select app.place_bet(%s, 6, 1000)', :em), 'BT403',
  :'ex_refusal',
  'nor the account sharing their bank account');
select tests.call_as('bystander');
select lives_ok(format('select app.place_bet(%s, 5, 1000)', :em), 'an account linked to nobody plays on');
select tests.reset_role();
select results_eq(format($$select user_id, changed_by, kind::text, ends_at, follows_change_id, linked_by::text
                           from public.protection_changes where follows_change_id = %s order by user_id$$, :ex_change),
  format($$values (%s::bigint, %s::bigint, 'self_exclusion', %L::timestamptz, %s::bigint, 'phone'),
                  (%s, %s, 'self_exclusion', %L, %s, 'bank_account')$$,
         tests.uid('ex_b'), tests.uid('ex_a'), :'ex_until', :ex_change,
         tests.uid('ex_c'), tests.uid('ex_a'), :'ex_until', :ex_change),
  'each linked account has a row of its own that follows the exclusion, saying how they are linked');
select is((select status::text from public.transactions where reference_id = 'REF-9301-LINK'), 'failed',
  'a linked account''s pending deposit is failed like the player''s');
select is((select count(*)::int from app.sessions where user_id = tests.uid('ex_b')), 0, 'its sessions end');
select tests.call_as('ex_b');
select throws_like('select app.take_timeout(1)', 'Already excluded: Your self-exclusion runs until %',
  'the linked player sees the exclusion as their own');
select tests.call_as('warden');
select app.set_user_status(tests.uid('ex_b'), 'suspended');
select app.set_user_status(tests.uid('ex_b'), 'active');
select tests.call_as('ex_b');
select throws_like(format('select app.place_bet(%s, 5, 1000)', :em), 'Self-exclusion: %',
  'an admin''s status change does not lift it');
select tests.call_as('warden');
select throws_ok(format('select app.take_timeout(1, %s)', tests.uid('ex_b')), 'BT403',
  'Only the player can change their own limits, time-out or self-exclusion', 'nor can an admin touch it');
select tests.reset_role();
select throws_ok(format('delete from public.protection_changes where follows_change_id = %s', :ex_change), 'BT403',
  'Player protection history cannot be changed', 'nothing deletes it');
select is((select self_excluded_until from jsonb_to_record(app.protection_json(tests.uid('ex_c'), now()))
             as p (self_excluded_until timestamptz)), :'ex_until'::timestamptz,
  'the linked account''s protection shows it');

select tests.as_webhook();
select app.register_user('to_a', 'hash', 'Resting Player', 'to_a@example.test', '+91 90000 22222', null);
select tests.reset_role();
select tests.create_user('to_b', 2000);
update public.users set phone = '+919000022222', phone_kept_duplicate = true where username = 'to_b';
select tests.call_as('to_a');
select app.take_timeout(7);
select tests.call_as('to_b');
select throws_like(format('select app.place_bet(%s, 5, 1000)', :em), 'Time-out: You cannot bet or deposit until %',
  'a time-out follows the person too');

/** Linked accounts, as admins see them */

select tests.create_user('dev_a', 0);
select tests.create_user('dev_b', 0);
select app.create_session(tests.uid('dev_a'), repeat('d', 64), null, null, 'family-laptop');
select app.create_session(tests.uid('dev_b'), repeat('e', 64), null, null, 'family-laptop');
select tests.call_as('warden');
select results_eq(format($$select (a ->> 'id')::bigint, l ->> 'reason', l ->> 'detail'
                           from jsonb_array_elements(app.admin_linked_accounts(%s)) a, jsonb_array_elements(a -> 'links') l
                           order by 1, 2$$, tests.uid('ex_a')),
  format($$values (%s::bigint, 'phone', '+91 90000 11111'), (%s, 'bank_account', 'SBIN0007700 ending 3344')$$,
         tests.uid('ex_b'), tests.uid('ex_c')),
  'an admin sees the accounts sharing a phone number or a bank account, each with why');
select is(app.admin_linked_accounts(tests.uid('dev_a')) -> 0 -> 'links' -> 0 ->> 'reason', 'device',
  'and those that signed in with the same device');
select is(app.admin_linked_accounts(tests.uid('ex_b')) -> 0 -> 'exclusion' ->> 'binds_this_user', 'true',
  'with the running exclusion, and whether it binds the user already');
select tests.reset_role();
update app.user_devices set last_sign_in_at = now() - interval '91 days' where user_id = tests.uid('dev_b');
select tests.call_as('warden');
select is(app.admin_linked_accounts(tests.uid('dev_a')), '[]'::jsonb, 'a device links for 90 days');
select throws_ok('select app.admin_linked_accounts(999999999)', 'BT404', 'User not found', 'an unknown user');
select tests.call_as('bystander');
select throws_ok(format('select app.admin_linked_accounts(%s)', tests.uid('ex_a')), 'BT403', 'Admin access required',
  'players see no one''s links');

/** An admin applies a running exclusion to a device-linked account */

select tests.reset_role();
select tests.create_user('dev_c', 2000);
select app.create_session(tests.uid('ex_a'), repeat('f', 64), null, null, 'quitters-phone');
select app.create_session(tests.uid('dev_c'), repeat('g', 64), null, null, 'quitters-phone');
select tests.call_as('dev_c');
select lives_ok(format('select app.place_bet(%s, 5, 1000)', :em), 'a device alone binds nothing');
select tests.call_as('warden');
select is(app.apply_linked_exclusion(tests.uid('dev_c'), tests.uid('ex_a')) ->> 'self_excluded_until',
  (select to_jsonb(:'ex_until'::timestamptz) #>> '{}'), 'an admin applies the exclusion to the device-linked account');
select tests.call_as('dev_c');
select throws_ok(format('select app.place_bet(%s, 5, 1000)', :em), 'BT403',
  :'ex_refusal',
  'which then cannot bet');
select tests.reset_role();
select results_eq(format($$select admin_id, after ->> 'from_user_id', after ->> 'linked_by' from public.audit_log
                           where action = 'protection.apply_linked_exclusion' and target_id = %s$$, tests.uid('dev_c')),
  format($$values (%s::bigint, %L, 'device')$$, tests.uid('warden'), tests.uid('ex_a')::text), 'it is audited');
select results_eq(format($$select changed_by, linked_by::text from public.protection_changes where user_id = %s$$, tests.uid('dev_c')),
  format($$values (%s::bigint, 'device')$$, tests.uid('warden')), 'with the admin as who changed it');
select tests.call_as('warden');
select throws_ok(format('select app.apply_linked_exclusion(%s, %s)', tests.uid('dev_c'), tests.uid('ex_a')), 'BT409',
  'This account is already bound by that exclusion', 'not twice');
select throws_ok(format('select app.apply_linked_exclusion(%s, %s)', tests.uid('bystander'), tests.uid('ex_a')), 'BT409',
  'These accounts are not linked by a device', 'only to an account a device links');
select tests.reset_role();
select app.create_session(tests.uid('bystander'), repeat('h', 64), null, null, 'shop-tablet');
select app.create_session(tests.uid('dev_a'), repeat('i', 64), null, null, 'shop-tablet');
select tests.call_as('warden');
select throws_ok(format('select app.apply_linked_exclusion(%s, %s)', tests.uid('bystander'), tests.uid('dev_a')), 'BT409',
  'This player has no running exclusion', 'and only a running exclusion');
select tests.call_as('bystander');
select throws_ok(format('select app.apply_linked_exclusion(%s, %s)', tests.uid('dev_c'), tests.uid('ex_a')), 'BT403',
  'Admin access required', 'never by a player');

/** A referral ring: acting as a referrer who opens two accounts on their own phone and hedges a match */

select tests.create_user('ring_boss', 0);
select referral_code as ring_code from public.users where username = 'ring_boss' \gset
select tests.create_user('ring_a', 1000, :'ring_code');
select tests.create_user('ring_b', 1000, :'ring_code');
select app.create_session(tests.uid('ring_boss'), repeat('j', 64), null, null, 'ring-phone');
select app.create_session(tests.uid('ring_a'), repeat('k', 64), null, null, 'ring-phone');
select app.create_session(tests.uid('ring_b'), repeat('l', 64), null, null, 'ring-phone');
select is((select count(*)::int from app.referrals where referrer_id = tests.uid('ring_boss') and linked_at is not null), 2,
  'signing in with the referrer''s phone marks both referrals linked');
select tests.create_match('live', 7, 8) as rm \gset
select tests.call_as('ring_a');
select app.place_bet(:rm, 7, 1000);
select tests.call_as('ring_b');
select app.place_bet(:rm, 8, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:rm, 7);
select tests.settle(:rm);
select tests.reset_role();
select is(tests.balance('ring_boss'), 0::bigint, 'the ring earns no bonus: the winner''s is not due, the loser''s is linked');
select is((select count(*)::int from public.transactions where user_id = tests.uid('ring_boss') and type = 'referral_bonus'), 0,
  'no referral_bonus row at all');

select tests.create_user('ring_c', 1000, :'ring_code');
update public.users set phone = (select phone from public.users where username = 'ex_a'), phone_kept_duplicate = true
  where username = 'ring_boss';
update public.users set phone = '+91 90000 11111', phone_kept_duplicate = true where username = 'ring_c';
select tests.create_match('live', 7, 8) as rm2 \gset
select tests.call_as('ring_c');
select app.place_bet(:rm2, 7, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:rm2, 8);
select tests.settle(:rm2);
select tests.reset_role();
select is(tests.balance('ring_boss'), 0::bigint, 'a referred account sharing the referrer''s phone number earns nothing either');
select isnt((select linked_at from app.referrals where user_id = tests.uid('ring_c')), null,
  'it is marked linked when the bonus would have been due');

select tests.create_user('ring_friend', 1000, :'ring_code');
select tests.create_match('live', 7, 8) as rm3 \gset
select tests.call_as('ring_friend');
select app.place_bet(:rm3, 7, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:rm3, 8);
select tests.settle(:rm3);
select tests.reset_role();
select is(tests.balance('ring_boss'), 100::bigint, 'a friend linked to nobody earns the bonus once the house made it on them');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
