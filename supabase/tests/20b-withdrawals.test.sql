-- Bank accounts and withdrawals: validation, ownership, the qualifying-deposit rule, available balance,
-- approval (debit, re-checked) and rejection (nothing moves).
begin;
set local search_path = tests, public;
select plan(45);

select tests.create_admin('boss');
select tests.create_admin('deputy');
select tests.create_user('wanda', 60000);   -- deposits of 60000 (qualifies)
select tests.create_user('xavier', 10000);  -- another player
select tests.create_user('small');          -- only small deposits, below

/** Bank accounts */

select tests.call_as('wanda');
select throws_ok($$select app.add_bank_account('Wa', '123456789', 'HDFC0001234', 'HDFC Bank')$$,
  'BT400', 'Account holder name must be at least 3 characters', 'holder name needs 3 characters');
select throws_ok($$select app.add_bank_account('Wanda W', '12345678', 'HDFC0001234', 'HDFC Bank')$$,
  'BT400', 'Account number must be valid', 'account number needs 9 characters');
select throws_ok($$select app.add_bank_account('Wanda W', '123456789', 'HDFC000123', 'HDFC Bank')$$,
  'BT400', 'IFSC code must be 11 characters', 'IFSC of 10 characters');
select throws_ok($$select app.add_bank_account('Wanda W', '123456789', 'HDFC00012345', 'HDFC Bank')$$,
  'BT400', 'IFSC code must be 11 characters', 'IFSC of 12 characters');
select throws_ok($$select app.add_bank_account('Wanda W', '123456789', 'HDFC0001234', 'HB')$$,
  'BT400', 'Bank name must be at least 3 characters', 'bank name needs 3 characters');
select throws_ok(format($$select app.add_bank_account('Wanda W', %L, 'HDFC0001234', 'HDFC Bank')$$, repeat('1', 51)),
  'BT400', 'Account number must be at most 50 characters', 'account number at most 50 characters');
select throws_ok(format($$select app.add_bank_account(%L, '123456789', 'HDFC0001234', 'HDFC Bank')$$, repeat('w', 256)),
  'BT400', 'Account holder name must be at most 255 characters', 'holder name at most 255 characters');
select results_eq($$select user_id, ifsc_code::text, is_active from app.add_bank_account('Wanda W', '123456789', 'hdfc0001234', 'HDFC Bank')$$,
  format('values (%s::bigint, %L, true)', tests.uid('wanda'), 'HDFC0001234'),
  'an account is added for the caller, IFSC upper-cased, active');
select throws_ok($$select app.add_bank_account('Wanda W', '123456789', 'HDFC0001234', 'HDFC Bank')$$,
  'BT409', 'Bank account already added', 'the same account twice is refused');
select tests.call_as('xavier');
select lives_ok($$select app.add_bank_account('Xavier X', '987654321', 'ICIC0004321', 'ICICI Bank')$$, 'xavier adds one');
select tests.call_as('small');
select lives_ok($$select app.add_bank_account('Small S', '555555555', 'SBIN0005555', 'State Bank')$$, 'small adds one');
select tests.reset_role();
select id as wanda_acct from public.bank_accounts where user_id = tests.uid('wanda') \gset
select id as xavier_acct from public.bank_accounts where user_id = tests.uid('xavier') \gset
select id as small_acct from public.bank_accounts where user_id = tests.uid('small') \gset

/** Withdrawal limits at their boundaries */

select tests.call_as('wanda');
select throws_ok(format('select app.request_withdrawal(499, %s)', :wanda_acct),
  'BT400', 'Minimum withdrawal amount is ₹500', '499 is below the minimum');
select is((select amount from app.request_withdrawal(500, :wanda_acct)), -500::bigint, '500 is accepted (stored as -500)');
select is((select amount from app.request_withdrawal(50000, :wanda_acct)), -50000::bigint, '50000 is accepted');
select throws_ok(format('select app.request_withdrawal(50001, %s)', :wanda_acct),
  'BT400', 'Maximum withdrawal amount is ₹50,000', '50001 is above the maximum');
select throws_ok('select app.request_withdrawal(1000, null)',
  'BT400', 'Please select a bank account', 'a bank account is required');
select throws_ok('select app.request_withdrawal(1000, 0)',
  'BT400', 'Please select a bank account', 'bank account id at least 1');
select throws_ok(format('select app.request_withdrawal(1000, %s)', :xavier_acct),
  'BT403', 'You can only withdraw to your own bank account', 'a foreign bank account is refused');
select throws_ok('select app.request_withdrawal(1000, 999999999)',
  'BT404', 'Bank account not found', 'an unknown bank account is 404');

select tests.reset_role();
select results_eq($$select amount, status::text, bank_account_id, reference_id = 'WD-' || id from public.transactions
                    where user_id = tests.uid('wanda') and type = 'withdrawal' order by id$$,
  format($$values (-500::bigint, 'pending', %1$s::bigint, true), (-50000::bigint, 'pending', %1$s::bigint, true)$$, :wanda_acct),
  'pending withdrawals are stored negative with their account and a WD-{id} reference');
select is(tests.balance('wanda'), 60000::bigint, 'a pending withdrawal debits nothing yet');

/** Available balance = balance - pending withdrawals */

select tests.call_as('wanda');
select throws_ok(format('select app.request_withdrawal(9501, %s)', :wanda_acct),
  'BT409', 'Insufficient balance', 'pending withdrawals reserve their funds (60000 - 50500 = 9500 available)');
select lives_ok(format('select app.request_withdrawal(9500, %s)', :wanda_acct), 'exactly the available amount is accepted');

/** The qualifying deposit rule */

select tests.deposit('small', 999);
select tests.deposit('small', 999);
select tests.call_as('small');
select throws_ok(format('select app.request_withdrawal(500, %s)', :small_acct),
  'BT409', 'Minimum deposit required: You need to have made at least one deposit of ₹1,000 or more to withdraw funds',
  'no deposit of 1000 or more: refused even with 1998 in the wallet');
select app.request_deposit(5000, 'upi', 'REF-88-PEND');
select throws_ok(format('select app.request_withdrawal(500, %s)', :small_acct),
  'BT409', 'Minimum deposit required: You need to have made at least one deposit of ₹1,000 or more to withdraw funds',
  'a pending deposit of 1000 or more does not qualify: only a completed one does');
select tests.deposit('small', 1000);
select tests.call_as('small');
select lives_ok(format('select app.request_withdrawal(500, %s)', :small_acct), 'a deposit of exactly 1000 qualifies');

/** Status */

select tests.reset_role();
update public.users set status = 'suspended' where username = 'xavier';
select tests.call_as('xavier');
select throws_ok(format('select app.request_withdrawal(500, %s)', :xavier_acct),
  'BT403', 'Your account is suspended', 'a suspended user cannot withdraw');
select tests.reset_role();
update public.users set status = 'banned' where username = 'xavier';
select tests.call_as('xavier');
select throws_ok(format('select app.request_withdrawal(500, %s)', :xavier_acct),
  'BT403', 'Your account is banned', 'a banned user cannot withdraw');
select tests.reset_role();
update public.users set status = 'active' where username = 'xavier';

/** Approval and rejection */

select min(id) as w500 from public.transactions where user_id = tests.uid('wanda') and type = 'withdrawal' \gset
select max(id) as w9500 from public.transactions where user_id = tests.uid('wanda') and type = 'withdrawal' \gset
select id as w50000 from public.transactions where user_id = tests.uid('wanda') and amount = -50000 \gset

select tests.call_as('wanda');
select throws_ok(format('select app.approve_transaction(%s)', :w500), 'BT403', 'Admin access required',
  'a player cannot approve');
select tests.call_as('boss');
select is((select status::text from app.approve_transaction(:w50000)), 'pending',
  'one admin''s approval of a withdrawal of ₹50,000 leaves it pending (40c-four-eyes)');
select tests.call_as('deputy');
select is((select status::text from app.approve_transaction(:w50000)), 'completed', 'a second admin completes it');
select tests.reset_role();
select is(tests.balance('wanda'), 10000::bigint, 'approval debits the wallet');
select tests.call_as('boss');
select throws_ok(format('select app.approve_transaction(%s)', :w50000), 'BT409', 'Transaction is not pending',
  'a second approval is refused');
select is((select status::text from app.reject_transaction(:w500)), 'failed', 'the admin rejects a withdrawal');
select tests.reset_role();
select is(tests.balance('wanda'), 10000::bigint, 'rejection moves no funds');
select tests.call_as('boss');
select throws_ok(format('select app.reject_transaction(%s)', :w500), 'BT409', 'Transaction is not pending',
  'a settled transaction cannot be rejected');
select throws_ok('select app.approve_transaction(999999999)', 'BT404', 'Transaction not found', 'unknown transaction');

-- an admin debit may not eat into a pending withdrawal (available = 10000 − 9500 pending = 500), so the
-- balance cannot drop below it (approval still re-checks the balance, as a second line of defence)
select throws_ok(format($$select app.admin_adjust_wallet(%s, -1000, 'chargeback')$$, tests.uid('wanda')), 'BT409',
  'Insufficient balance', 'an admin debit may not take the available balance below zero');
select tests.reset_role();
select is(tests.balance('wanda'), 10000::bigint, 'nothing was debited');

/** Approving a pending deposit credits it like the gateway would */

select tests.call_as('xavier');
select app.request_deposit(2000, 'upi', 'REF-77-ABCD');
select tests.call_as('boss');
select is((select status::text from app.approve_transaction(
  (select id from public.transactions where reference_id = 'REF-77-ABCD'))), 'completed', 'approving a deposit completes it');
select tests.reset_role();
select is(tests.balance('xavier'), 12000::bigint, 'and credits it');
select tests.as_webhook();
select is((select status::text from app.complete_deposit('REF-77-ABCD', 2000, 'success', 'GW-77')), 'completed',
  'a later gateway success is a harmless replay');
select tests.reset_role();
select is(tests.balance('xavier'), 12000::bigint, 'no second credit');
select is((select count(*)::int from public.audit_log where admin_id = tests.uid('boss') and target_type = 'transaction'), 3,
  'approvals and rejections are audited');

select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
