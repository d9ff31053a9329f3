-- What a stolen session cannot do or keep (12_sessions.sql, 11_credentials.sql): a new password or
-- second factor gives the session that made it a new token, so a copy of the old cookie stops working;
-- setting up a second factor starts from the owner's proof, counted like a sign-in; every session that ends
-- is announced, so the live streams it opened close; two-factor secrets are kept sealed (one in clear from
-- before is sealed without ending a session); ten wrong codes lock the second factor for every browser but
-- the owner's, audited and shown to the owner.
begin;
set local search_path = tests, public;
select plan(37);

select tests.create_user('nadia');
select tests.create_admin('ops_lead');
select tests.create_user('omar');

-- A session for a user (token p_token repeated), opened from a known browser and address; its id.
create function tests.open_session(p_username text, p_token text)
returns bigint
language plpgsql
as $$
begin
  perform tests.as_webhook();
  perform app.create_session(tests.uid(p_username), repeat(p_token, 64), 'Owner''s browser', '10.38.0.1', null);
  perform tests.reset_role();
  return (select id from app.sessions where token_hash = repeat(p_token, 64));
end;
$$;

-- A request of the session of token p_token, as the API makes it: claims from app.authenticate, role service_role.
create function tests.request_with(p_token text)
returns void
language plpgsql
as $$
begin
  perform tests.reset_role();
  perform set_config('role', 'service_role', true);
  perform app.authenticate(repeat(p_token, 64), 'user', '10.38.0.1');
end;
$$;

-- Whether a session token still opens a request.
create function tests.token_works(p_token text)
returns boolean
language plpgsql
as $$
begin
  perform tests.request_with(p_token);
  perform tests.reset_role();
  return true;
exception when sqlstate 'BT401' then
  perform tests.reset_role();
  return false;
end;
$$;

/** A new password: the copied cookie stops working */

select tests.open_session('nadia', 'a') as nadia_a \gset
select tests.open_session('nadia', 'b') as nadia_b \gset
update app.sessions set play_started_at = now() - interval '20 minutes' where id = :nadia_a;
select tests.request_with('a');
select ok(app.change_password('new-hash-nadia', repeat('c', 64)) > now() + interval '29 days',
  'a password change answers the new session''s end: a fresh 30 days');
select tests.reset_role();
select is(tests.token_works('a'), false, 'the token that made the change no longer works (a copy of the cookie is dead)');
select is(tests.token_works('b'), false, 'nor does any other session of the user');
select is(tests.token_works('c'), true, 'the new token does');
select results_eq($$select user_agent::text, ip::text, play_started_at < now() - interval '19 minutes'
                    from app.sessions where token_hash = repeat('c', 64)$$,
  $$values ('Owner''s browser', '10.38.0.1', true)$$,
  'and keeps the browser, the address and the play session (the reality checks go on counting)');
select isnt((select id from app.sessions where token_hash = repeat('c', 64)), :nadia_a::bigint,
  'under a new public id');
select tests.request_with('c');
select throws_ok($$select app.change_password('h2', 'short')$$, 'BT400', 'Invalid session token',
  'a new token must look like one');
select tests.reset_role();

/** Setting up a second factor starts from the owner's proof */

select tests.open_session('ops_lead', 'd') as lead_d \gset
select tests.open_session('ops_lead', 'e') as lead_e \gset
select tests.request_with('d');
select results_eq($$select user_id, password_hash::text, totp_secret from app.begin_factor_check('10.38.0.9', 'lead-phone')$$,
  $$values (tests.uid('ops_lead'), 'test-hash-ops_lead', null::text)$$,
  'an admin''s proof is checked against their password hash (and their current secret, none yet)');
select tests.reset_role();
select is_empty($$select 1 from app.login_attempts where username = 'ops_lead'$$,
  'the check records nothing while it runs');
select tests.request_with('d');
select app.finish_password_check('10.38.0.9', 'lead-phone', false);
select tests.reset_role();
select results_eq($$select action::text, username::text, ip::text, device::text, success from app.login_attempts
                    where username = 'ops_lead'$$,
  $$values ('login', 'ops_lead', '10.38.0.9', 'lead-phone', false)$$,
  'and its outcome counts as a sign-in attempt of their name (here a failed one)');
select tests.request_with('d');
select is(app.begin_totp_enrolment(tests.sealed('lead')), 'ops_lead', 'the set-up starts');
select app.confirm_totp_enrolment(tests.sealed('lead'), 7, array(select 'h' || g from generate_series(1, 10) g),
  repeat('1f', 16), repeat('f', 64));
select tests.reset_role();
select results_eq($$select tests.token_works('d'), tests.token_works('e'), tests.token_works('f')$$,
  $$values (false, false, true)$$,
  'a new second factor ends every session but gives the one that set it up a new token');

select tests.request_with('f');
select results_eq($$select totp_secret, recovery_code_salt from app.begin_factor_check('10.38.0.9')$$,
  $$values (tests.sealed('lead'), repeat('1f', 16))$$,
  'once one is on, the proof includes its sealed secret and the salt of its recovery codes (the API asks for a code)');

select tests.open_session('omar', 'g') as omar_g \gset
select tests.request_with('g');
select throws_ok($$select * from app.begin_factor_check('10.38.0.9')$$, 'BT403', 'Two-factor sign-in is for administrators',
  'a player has no second factor to set up');
select tests.reset_role();

/** Live streams end with their session */

select trigger_is('app', 'sessions', 'sessions_announce_end', 'app', 'announce_ended_sessions',
  'every deletion of sessions is announced on sessions_ended, whatever statement made it');
select tests.open_session('omar', 'h') as omar_h \gset
select tests.open_session('omar', 'i') as omar_i \gset
update app.sessions set expires_at = now() - interval '1 second' where id = :omar_i;
select set_eq(format('select app.ended_sessions(array[%s, %s, %s, %s])', :omar_g, :omar_h, :omar_i, :nadia_a),
  format('values (%s::bigint), (%s::bigint)', :omar_i, :nadia_a),
  'a server process learns which of its streams'' sessions have ended: deleted or expired, not open ones');
select tests.request_with('h');
select app.end_all_sessions();
select tests.reset_role();
select set_eq(format('select app.ended_sessions(array[%s, %s])', :omar_g, :omar_h),
  format('values (%s::bigint), (%s::bigint)', :omar_g, :omar_h), 'and that signing out everywhere ended them all');

/** Second factors at rest: sealed, and one kept in clear from before is sealed without ending a session */

select tests.as_webhook();
select throws_ok($$select app.set_admin_totp('ops_lead', 'JBSWY3DPEHPK3PXPJBSWY3DP', array(select 'h' || g from generate_series(1, 10) g), repeat('1f', 16))$$,
  'BT400', 'Invalid two-factor secret', 'the database refuses to keep a secret in clear');
select throws_ok($$select app.set_admin_totp('ops_lead', tests.sealed('x'), array(select 'h' || g from generate_series(1, 10) g), null)$$,
  'BT400', 'Invalid recovery code salt', 'and recovery codes without a salt of their own');
select tests.request_with('f');
select throws_ok($$select app.begin_totp_enrolment('JBSWY3DPEHPK3PXPJBSWY3DP')$$, 'BT400', 'Invalid two-factor secret',
  'a set-up too');
select tests.reset_role();

-- the state of an account set up before sealing: its secret in clear, its codes unsalted
update app.credentials set totp_secret = 'JBSWY3DPEHPK3PXPJBSWY3DP', recovery_code_salt = null
  where user_id = tests.uid('ops_lead');
select tests.open_session('ops_lead', 'j') as lead_j \gset
select tests.as_webhook();
select results_eq($$select user_id, totp_secret from app.plain_totp_secrets()$$,
  $$values (tests.uid('ops_lead'), 'JBSWY3DPEHPK3PXPJBSWY3DP'::text)$$, 'admin:create finds the secrets kept in clear');
select is(app.seal_totp_secret(tests.uid('ops_lead'), 'ANOTHERSECRETAAAAAAAAAAA', tests.sealed('lead-again')), false,
  'a seal replaces only the very secret that was read in clear');
select is(app.seal_totp_secret(tests.uid('ops_lead'), 'JBSWY3DPEHPK3PXPJBSWY3DP', tests.sealed('lead-again')), true,
  'which it seals');
select throws_ok(format($$select app.seal_totp_secret(%s, %L, 'JBSWY3DPEHPK3PXPJBSWY3DP')$$, tests.uid('ops_lead'), tests.sealed('lead-again')),
  'BT400', 'Invalid two-factor secret', 'and only into a sealed one');
select tests.reset_role();
select results_eq($$select totp_secret::text, (select count(*)::int from app.plain_totp_secrets()) from app.credentials
                    where user_id = tests.uid('ops_lead')$$,
  $$values (tests.sealed('lead-again'), 0)$$, 'the secret is sealed, none is left in clear');
select is(tests.token_works('j'), true, 'and no session ended: the second factor is the same');
select is(app.seal_totp_secret(tests.uid('ops_lead'), tests.sealed('lead-again'), tests.sealed('third')), false,
  'a sealed secret is never replaced this way');

/** Ten wrong codes lock the second factor, for every browser but the owner's */

select tests.as_webhook();
select app.create_session(tests.uid('ops_lead'), repeat('k', 64), 'Owner''s browser', '10.38.0.1', 'lead-laptop');
select app.record_wrong_code(tests.uid('ops_lead'), '203.0.113.' || g, 'thief-' || g) from generate_series(1, 9) g;
select tests.reset_role();
select is(app.second_factor_wait(tests.uid('ops_lead'), 'thief-x'), null, 'nine wrong codes lock nothing');
select is((select count(*)::int from public.audit_log where action = 'user.second_factor_locked'), 0, 'nor are audited');
select tests.as_webhook();
select app.record_wrong_code(tests.uid('ops_lead'), '203.0.113.10', 'thief-10');
select tests.reset_role();
select ok(app.second_factor_wait(tests.uid('ops_lead'), 'thief-x') between 890 and 900,
  'the tenth in 15 minutes locks it for 15 minutes from the oldest of the ten');
select ok(app.second_factor_wait(tests.uid('ops_lead'), null) > 0, 'for a browser without a device cookie too');
select is(app.second_factor_wait(tests.uid('ops_lead'), 'lead-laptop'), null,
  'but never for the owner''s own browser (one that has signed in as them)');
select results_eq($$select second_factor_wait is not null from app.get_credentials('OPS_LEAD', 'thief-x')
                    union all select second_factor_wait is null from app.get_credentials('ops_lead', 'lead-laptop')$$,
  $$values (true), (true)$$, 'a sign-in learns the lock for its browser with the credentials');
select results_eq($$select admin_id, target_id, after ->> 'wrong_codes', after ->> 'ip', (after ->> 'locked_until')::timestamptz > now()
                    from public.audit_log where action = 'user.second_factor_locked'$$,
  $$values (null::bigint, tests.uid('ops_lead'), '10', '203.0.113.10', true)$$,
  'the lock is audited: whose, how many codes, from where, until when (no admin acted)');
select tests.as_webhook();
select app.record_wrong_code(tests.uid('ops_lead'), '203.0.113.11', 'thief-11');
select tests.reset_role();
select is((select count(*)::int from public.audit_log where action = 'user.second_factor_locked'), 1,
  'once per lock, however many more codes come');
select tests.request_with('k');
select ok((app.totp_status(false) ->> 'locked_until')::timestamptz > now(), 'the owner sees it on their Security screen');
select tests.reset_role();
select tests.as_webhook();
select app.set_admin_totp('ops_lead', tests.sealed('fresh'), array(select 'n' || g from generate_series(1, 10) g), repeat('2e', 16));
select tests.reset_role();
select is(app.second_factor_wait(tests.uid('ops_lead'), 'thief-x'), null, 'a new second factor starts without a lock');

select * from finish();
rollback;
