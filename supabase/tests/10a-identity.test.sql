-- Identity: registration (with referral), admin creation, credential lookup, sessions, rate limiting.
begin;
set local search_path = tests, public;
select plan(47);

/** Registration */

select tests.as_webhook();
select lives_ok($$select app.register_user('Alice', 'hash-a', 'Alice A', 'Alice@Example.com', '+91 90000 00001', null)$$,
  'a player registers');
select tests.reset_role();
select results_eq($$select role::text, status::text, wallet_balance, email::text, phone::text from public.users where username = 'Alice'$$,
  $$values ('user', 'active', 0::bigint, 'alice@example.com', '+91 90000 00001')$$,
  'new players are user/active with an empty wallet; email stored lower-case');
select matches((select referral_code::text from public.users where username = 'Alice'), '^[A-Z2-9]{8}$',
  'a referral code is generated');
select is((select password_hash::text from app.credentials where user_id = tests.uid('alice')), 'hash-a',
  'the password hash is stored apart, in app.credentials');

select tests.as_webhook();
select throws_ok($$select app.register_user('ALICE', 'h', 'Other', 'other@example.com', null, null)$$,
  'BT409', 'Username already exists', 'usernames are unique case-insensitively');
select throws_ok($$select app.register_user('alice2', 'h', 'Other', 'ALICE@example.COM', null, null)$$,
  'BT409', 'Email already registered', 'emails are unique case-insensitively');
select throws_ok($$select app.register_user('bob', 'h', 'Bob B', 'bob@example.com', null, 'NOPE1234')$$,
  'BT400', 'Invalid referral code', 'an unknown referral code is refused');
select throws_ok($$select app.register_user('ab', 'h', 'Bob B', 'bob@example.com', null, null)$$,
  'BT400', 'Username must be at least 3 characters', 'username needs 3 characters');
select throws_ok($$select app.register_user('bob', 'h', 'B', 'bob@example.com', null, null)$$,
  'BT400', 'Name must be at least 2 characters', 'name needs 2 characters');
select throws_ok($$select app.register_user('bob', 'h', 'Bob B', 'not-an-email', null, null)$$,
  'BT400', 'Please enter a valid email', 'email must be valid');
select throws_ok($$select app.register_user('bob', '', 'Bob B', 'bob@example.com', null, null)$$,
  'BT400', 'Password is required', 'a password hash is required');
select throws_ok(format($$select app.register_user(%L, 'h', 'Bob B', 'bob@example.com', null, null)$$, repeat('b', 256)),
  'BT400', 'Username must be at most 255 characters', 'username at most 255 characters');
select lives_ok(format($$select app.register_user(%L, 'h', 'Bob B', 'bob255@example.com', null, null)$$, repeat('b', 255)),
  'a 255-character username is accepted');
select throws_ok(format($$select app.register_user('bob', 'h', 'Bob B', 'bob@example.com', %L, null)$$, repeat('9', 51)),
  'BT400', 'Phone must be at most 50 characters', 'phone at most 50 characters');
select throws_ok(format($$select app.register_user('bob', 'h', %L, 'bob@example.com', null, null)$$, repeat('n', 256)),
  'BT400', 'Name must be at most 255 characters', 'name at most 255 characters');

-- referral: the code of Alice, typed in lower case
select lives_ok(format($$select app.register_user('bob', 'h', 'Bob B', 'bob@example.com', '', %L)$$,
  (select lower(referral_code) from public.users where username = 'Alice')),
  'registering with another user''s referral code');
select tests.reset_role();
select is((select referred_by from public.users where username = 'bob'), tests.uid('alice'),
  'referred_by is the referrer');
select is((select phone from public.users where username = 'bob'), null, 'an empty phone is stored as null');
select isnt((select referral_code from public.users where username = 'bob'),
  (select referral_code from public.users where username = 'Alice'), 'each user gets their own code');

/** Admin creation (operator script, no claims) */

select tests.as_webhook();
select is((select role::text from app.create_admin('root', 'hash-r', 'Root', 'root@example.com')), 'admin',
  'create_admin creates an admin');
select is((select role::text || '/' || status::text from app.create_admin('bob', 'hash-b2', 'Bob', null, p_promote => true)),
  'admin/active', 'create_admin promotes an existing player when asked to');
select tests.reset_role();
select is((select password_hash::text from app.credentials where user_id = tests.uid('bob')), 'hash-b2',
  'promotion sets the new password hash');
select is((select count(*)::int from public.audit_log where target_id in (tests.uid('root'), tests.uid('bob'))
           and action in ('user.create_admin', 'user.promote_admin')), 2, 'both are audited');

/** Credentials */

select tests.as_webhook();
select results_eq($$select user_id, password_hash, status from app.get_credentials('ALICE')$$,
  format('values (%s::bigint, %L::text, %L::text)', tests.uid('alice'), 'hash-a', 'active'),
  'credentials are found case-insensitively');
select is_empty($$select * from app.get_credentials('nobody')$$, 'an unknown username has no credentials');

/** Sessions (resolved by app.authenticate, as every signed-in request does: 00e-request-path has the rest) */

select lives_ok(format($$select app.create_session(%s, repeat('a', 64))$$, tests.uid('alice')),
  'a session is created');
select results_eq($$select user_id, role, status from app.authenticate(repeat('a', 64), 'user')$$,
  format($$values (%s::bigint, 'user'::text, 'active'::text)$$, tests.uid('alice')),
  'a valid session resolves to its user');
select tests.as_webhook();
select throws_ok($$select app.authenticate(repeat('z', 64), 'user')$$, 'BT401', 'Not authenticated',
  'an unknown token resolves to nothing');
select throws_ok(format($$select app.create_session(%s, 'short')$$, tests.uid('alice')),
  'BT400', 'Invalid session token', 'a token hash of the wrong size is refused');
select throws_ok($$select app.create_session(-1, repeat('b', 64))$$,
  'BT404', 'User not found', 'a session for nobody is refused');

-- an expired session: written directly to simulate time passing
select tests.reset_role();
insert into app.sessions (token_hash, user_id, expires_at) values (repeat('e', 64), tests.uid('alice'), now() - interval '1 minute');
select tests.as_webhook();
select throws_ok($$select app.authenticate(repeat('e', 64), 'user')$$, 'BT401', 'Not authenticated',
  'an expired session resolves to nothing');
select lives_ok(format($$select app.create_session(%s, repeat('f', 64))$$, tests.uid('alice')),
  'a new session (a sign-in) …');
select tests.reset_role();
select is((select count(*)::int from app.sessions where token_hash = repeat('e', 64)), 0, '… purges the expired ones');

select tests.as_webhook();
select lives_ok($$select app.delete_session(repeat('a', 64))$$, 'logout deletes the session');
select throws_ok($$select app.authenticate(repeat('a', 64), 'user')$$, 'BT401', 'Not authenticated',
  'a deleted session resolves to nothing');

-- banned users: no new sessions, existing ones stop resolving
select lives_ok(format($$select app.create_session(%s, repeat('c', 64))$$, tests.uid('alice')),
  'another session for alice');
select tests.reset_role();
update public.users set status = 'banned' where username = 'Alice';
select tests.as_webhook();
select throws_ok($$select app.authenticate(repeat('c', 64), 'user')$$, 'BT401', 'Not authenticated',
  'a banned user''s session does not resolve');
select throws_ok(format($$select app.create_session(%s, repeat('d', 64))$$, tests.uid('alice')),
  'BT403', 'Your account is banned', 'a banned user cannot sign in');

/** Rate limiting */

-- app.check_attempt checks the limits against finished attempts; app.conclude_attempt records an outcome.
-- The limits' numbers, times, parallel attempts and Retry-After: 13a-rate-limits.
select app.conclude_attempt('login', 'carol', '10.0.0.1', false) from generate_series(1, 9);
select lives_ok($$select app.check_attempt('login', 'carol', '10.0.0.1')$$, 'after 9 failed logins the 10th may run');
select app.conclude_attempt('login', 'carol', '10.0.0.1', false);
select throws_ok($$select app.check_attempt('login', 'CAROL', '10.0.0.1')$$,
  'BT429', 'Too many attempts. Please try again in a few minutes.', '10 failed logins for a username from one ip block that pair');
select lives_ok($$select app.check_attempt('login', 'carol', '10.0.0.9')$$,
  'the username may still sign in from another ip');
select app.conclude_attempt('login', 'user' || g, '10.9.9.9', false) from generate_series(1, 30) g;
select throws_ok($$select app.check_attempt('login', 'someone', '10.9.9.9')$$,
  'BT429', 'Too many attempts. Please try again in a few minutes.', '30 failed logins from one ip block that ip');
select app.conclude_attempt('login', 'carol', '10.0.0.9', true);
select throws_ok($$select app.check_attempt('login', 'carol', '10.0.0.1')$$, 'BT429',
  'Too many attempts. Please try again in a few minutes.', 'a successful login elsewhere clears nothing here');
select app.conclude_attempt('register', 'new' || g, '10.1.1.1', true) from generate_series(1, 5) g;
select app.conclude_attempt('register', 'taken', '10.1.1.1', false) from generate_series(1, 9);
select lives_ok($$select app.check_attempt('register', 'another', '10.1.1.1')$$,
  'the tenth failed registration from one ip may run (the successful ones do not count)');
select app.conclude_attempt('register', 'taken', '10.1.1.1', false);
select throws_ok($$select app.check_attempt('register', 'another', '10.1.1.1')$$,
  'BT429', 'Too many attempts. Please try again in a few minutes.', '10 failed registrations from one ip block it');
select lives_ok($$select app.check_attempt('register', 'another', '10.1.1.2')$$, 'other ips may register');

select tests.reset_role();
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
