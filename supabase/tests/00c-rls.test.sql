-- Row level security as the API reads: player A sees only A's rows, never B's; admins see all; anon sees
-- teams and matches only; nobody writes tables directly.
begin;
set local search_path = tests, public;
select plan(32);

select tests.create_admin('overseer');
select tests.create_user('anna', 5000);
select tests.create_user('ben', 5000);
select tests.create_match('upcoming') as m \gset
select tests.call_as('anna');
select app.place_bet(:m, 1, 1000);
select app.add_bank_account('Anna A', '123123123', 'HDFC0000001', 'HDFC Bank');
select tests.call_as('ben');
select app.place_bet(:m, 2, 2000);
select app.add_bank_account('Ben B', '456456456', 'HDFC0000002', 'HDFC Bank');
select tests.as_webhook();
select app.create_session(tests.uid('ben'), repeat('s', 64));
select tests.reset_role();
select tests.uid('anna') as anna, tests.uid('ben') as ben \gset
-- the database may already hold other suites' data: compare with what the session user sees
select (select count(*) from public.users) as n_users, (select count(*) from public.bets) as n_bets,
       (select count(*) from public.bank_accounts) as n_accounts, (select count(*) from public.matches) as n_matches \gset

/** Acting as player A */

select tests.act_as('anna');
select results_eq('select id from public.users', format('values (%s::bigint)', :anna), 'anna sees only her users row');
select is((select count(*)::int from public.users where id = :ben), 0, 'ben''s row does not exist for anna');
select is((select array_agg(distinct user_id) from public.bets), array[:anna::bigint], 'anna sees only her bets');
select is((select array_agg(distinct user_id) from public.transactions), array[:anna::bigint], 'anna sees only her transactions');
select is((select array_agg(distinct user_id) from public.bank_accounts), array[:anna::bigint], 'anna sees only her bank accounts');
select is_empty('select * from public.audit_log', 'players see no audit log');
select is((select count(*) from public.matches), :n_matches::bigint, 'every match is readable');
select is((select count(*)::int from public.teams), 10, 'teams are readable');

select throws_ok(format('update public.users set wallet_balance = 0 where id = %s', :ben), '42501', null,
  'anna cannot update ben''s wallet');
select throws_ok(format('update public.users set role = $$admin$$ where id = %s', :anna), '42501', null,
  'anna cannot make herself admin');
select throws_ok(format('delete from public.bets where user_id = %s', :ben), '42501', null, 'anna cannot delete bets');
select throws_ok(format('insert into public.transactions (user_id, amount, type, status) values (%s, 100000, $$deposit$$, $$completed$$)', :anna),
  '42501', null, 'anna cannot write herself a deposit');
select throws_ok(format('update public.bank_accounts set user_id = %s', :anna), '42501', null, 'anna cannot take bank accounts');
select throws_ok('update public.matches set status = $$completed$$', '42501', null, 'anna cannot change matches');
select throws_ok('select * from app.sessions', '42501', null, 'anna cannot read sessions');
select throws_ok('select * from app.credentials', '42501', null, 'anna cannot read password hashes');
select throws_ok('select app.reconcile()', '42501', null, 'anna cannot call business functions directly as authenticated');
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :m), '42501', null,
  'authenticated cannot execute place_bet (service_role only)');

/** A forged user id in the claims of player A shows only that id's rows, never more */

select tests.reset_role();
select set_config('request.jwt.claims', '{"role":"authenticated"}', true);
select set_config('role', 'authenticated', true);
select is_empty('select * from public.users', 'claims without a user id see no users');
select is_empty('select * from public.bets', 'and no bets');
select set_config('request.jwt.claims', '', true);
select is_empty('select * from public.transactions', 'an empty claims setting (pooled connection) sees nothing');

/** Acting as an admin */

select tests.act_as('overseer');
select is((select count(*) from public.users), :n_users::bigint, 'the admin sees every user');
select is((select count(*) from public.bets), :n_bets::bigint, 'every bet');
select is((select count(*) from public.bank_accounts), :n_accounts::bigint, 'every bank account');
select ok((select count(*) from public.audit_log) > 0, 'and the audit log');
select throws_ok(format('update public.users set wallet_balance = 0 where id = %s', :ben), '42501', null,
  'not even an admin writes tables directly');

/** Acting as anon */

select tests.act_as_anon();
select is((select count(*)::int from public.teams), 10, 'anon reads teams');
select is((select count(*) from public.matches), :n_matches::bigint, 'anon reads every match');
select throws_ok('select * from public.users', '42501', null, 'anon cannot read users');
select throws_ok('select * from public.transactions', '42501', null, 'anon cannot read transactions');
select throws_ok('select app.current_user_id()', '42501', null, 'anon has no access to app');

select tests.reset_role();
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');
select * from finish();
rollback;
