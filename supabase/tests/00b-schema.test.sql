-- Schema-wide guarantees: RLS everywhere in public, privileges of the API roles, function hardening
-- (Supabase lints 0028/0029 are not in CLI 3.1.0's advisors, so they are asserted here), reference data.
begin;
set local search_path = tests, public;
select plan(18);

/** Tables and RLS */

select tables_are('public', array['users', 'bank_accounts', 'transactions', 'teams', 'matches', 'bets', 'audit_log',
                                 'protection_changes'],
  'public holds exactly the product tables');
select tables_are('app', array['credentials', 'sessions', 'login_attempts', 'settings', 'idempotency_keys', 'user_activity',
                              'match_book', 'player_match_stakes', 'referrals', 'user_devices', 'recovery_codes',
                              'second_factor_failures', 'settlement_runs', 'settlement_batches', 'accounts',
                              'ledger_types', 'house_transfers', 'account_days', 'match_lines', 'settings_changes', 'transaction_approvals',
                              'result_corrections'],
  'app holds the private tables');
select is_empty($$
  select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind = 'r' and not c.relrowsecurity
$$, 'RLS is enabled on every public table');
select is_empty($$
  select polname from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and p.polcmd <> 'r'
$$, 'there are only select policies: writes go through app functions');

/** Table privileges */

select is_empty($$
  select table_name, grantee, privilege_type from information_schema.role_table_grants
  where table_schema = 'public' and grantee in ('anon', 'authenticated', 'service_role')
    and privilege_type <> 'SELECT'
$$, 'no API role may insert, update or delete public tables');
select is_empty($$
  select table_name from information_schema.role_table_grants
  where table_schema = 'public' and grantee = 'anon' and table_name not in ('teams', 'matches')
$$, 'anon reads only teams and matches');
select ok(bool_and(has_table_privilege('authenticated', 'public.' || t, 'select')),
  'authenticated may select every public table (RLS decides the rows)')
  from unnest(array['users', 'bank_accounts', 'transactions', 'teams', 'matches', 'bets', 'audit_log']) t;
select is_empty($$
  select table_name, grantee from information_schema.role_table_grants
  where table_schema = 'app' and grantee in ('anon', 'authenticated', 'service_role', 'PUBLIC')
$$, 'no API role has any privilege on the private app tables');

/** Function hardening */

select is_empty($$
  select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where p.prosecdef and n.nspname not in ('pg_catalog', 'information_schema')
    and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))
$$, 'no SECURITY DEFINER function is executable by anon or authenticated (lints 0028/0029)');
select set_eq($$
  select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname = 'app' and has_function_privilege('anon', p.oid, 'execute')
$$, array['app.match_json(matches)'],
  'anon can execute nothing in app but the public match shape');
select set_eq($$
  select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname = 'app' and has_function_privilege('authenticated', p.oid, 'execute')
$$, array['app.current_user_id()', 'app.is_admin()', 'app.pending_withdrawals(bigint)', 'app.match_json(matches)',
          'app.bet_json(bets)', 'app.bets_json(bets[])', 'app.user_json(users)', 'app.bank_account_json(bank_accounts)'],
  'authenticated can execute only the RLS helpers and the answer shapes in app (none is SECURITY DEFINER)');
select is_empty($$
  select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname = 'app' and p.prosecdef
    and not coalesce(p.proconfig @> array['search_path=""'], false)
$$, 'every SECURITY DEFINER function has an empty search_path');
select is_empty($$
  select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname = 'app' and not exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%')
$$, 'every function in app pins its search_path');
select ok(not has_schema_privilege('anon', 'app', 'create'), 'anon cannot create anything in schema app');
select set_eq($$
  select p.proname::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname = 'app' and has_function_privilege('service_role', p.oid, 'execute') and p.prosecdef
$$, array['register_user', 'update_profile', 'create_admin', 'get_credentials', 'create_session', 'authenticate', 'delete_session',
          'check_attempt', 'conclude_attempt', 'idempotency_begin', 'idempotency_save',
          'account_sessions', 'end_session', 'end_all_sessions', 'begin_password_check', 'begin_factor_check',
          'finish_password_check',
          'change_password',
          'use_second_factor', 'totp_status', 'begin_totp_enrolment', 'pending_totp_secret', 'confirm_totp_enrolment',
          'set_admin_totp', 'record_wrong_code', 'seal_totp_secret', 'plain_totp_secrets',
          'request_deposit', 'complete_deposit', 'add_bank_account', 'request_withdrawal', 'reconcile', 'books', 'books_csv',
          'place_bet', 'match_position', 'create_match', 'start_match', 'update_live', 'set_match_odds', 'declare_winner',
          'abandon_match', 'propose_result_correction', 'match_result_corrections', 'decide_result_correction',
          'set_betting_suspended', 'match_risk', 'get_risk_settings', 'update_risk_settings',
          'pending_settings_changes', 'decide_settings_change',
          'approve_transaction', 'second_admin_notice', 'reject_transaction', 'admin_adjust_wallet', 'set_user_status', 'dashboard_stats',
          'admin_users', 'admin_user_counts', 'admin_linked_accounts', 'apply_linked_exclusion',
          'account_limits', 'set_deposit_limit', 'take_timeout', 'self_exclude', 'statement',
          'reality_check', 'set_reality_check', 'play_session', 'answer_limit_prompt',
          'fail_stale_deposits'],  -- the scheduled job (20c-stale-deposits.test.sql)
  'service_role can execute exactly the business functions of the API contract');

/** Reference data and settings */

select results_eq('select id, name::text, short_name::text from public.teams order by id',
  $$ values (1::bigint, 'Mumbai Indians', 'MI'), (2, 'Chennai Super Kings', 'CSK'),
     (3, 'Royal Challengers Bangalore', 'RCB'), (4, 'Kolkata Knight Riders', 'KKR'), (5, 'Delhi Capitals', 'DC'),
     (6, 'Punjab Kings', 'PBKS'), (7, 'Rajasthan Royals', 'RR'), (8, 'Sunrisers Hyderabad', 'SRH'),
     (9, 'Gujarat Titans', 'GT'), (10, 'Lucknow Super Giants', 'LSG') $$,
  'the ten fixed teams of the league');
select is((select value from app.settings where key = 'referral_bonus_amount'), '100'::jsonb,
  'referral bonus defaults to 100');
select has_trigger('public', 'matches', 'matches_notify', 'match changes are announced with pg_notify');

select * from finish();
rollback;
