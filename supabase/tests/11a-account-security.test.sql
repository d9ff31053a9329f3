-- Accounts that cannot be taken over (11_credentials.sql, 12_sessions.sql, 13_rate_limits.sql): admin creation never captures
-- a player, reserved names, sessions that follow the account and expire, the sessions a user sees and ends,
-- the second factor (no replay, recovery codes once) and throttling that spares the player's own browser.
begin;
set local search_path = tests, public;
select plan(53);

select tests.create_user('pat');
select tests.create_user('quinn');
select tests.create_admin('ops_chief');

-- A session for a user; its id.
create function tests.sign_in(p_username text, p_token text)
returns bigint
language plpgsql
as $$
begin
  perform tests.as_webhook();
  perform app.create_session(tests.uid(p_username), repeat(p_token, 64), 'Test browser', '10.19.0.1', null);
  perform tests.reset_role();
  return (select id from app.sessions where token_hash = repeat(p_token, 64));
end;
$$;

-- Acts as the API does for a request of session p_token: authenticate (claims), then role service_role.
create function tests.request_as(p_token text)
returns void
language plpgsql
as $$
begin
  perform tests.reset_role();
  perform set_config('role', 'service_role', true);
  perform app.authenticate(repeat(p_token, 64), 'user', '10.19.0.1');
end;
$$;

-- The number of sessions of a user (resets the role, like tests.uid).
create function tests.open_sessions(p_username text)
returns int
language plpgsql
as $$
begin
  perform tests.reset_role();
  return (select count(*)::int from app.sessions where user_id = tests.uid(p_username));
end;
$$;

/** Registration refuses the names people trust as staff */

select tests.as_webhook();
select throws_ok(format($$select app.register_user(%L, 'h', 'Not Staff', %L, null, null)$$, name, name || '@example.test'),
  'BT400', 'This username is not available', format('%s cannot be registered', name))
from unnest(array['admin', 'Administrator', 'ROOT', 'support', 'System', 'operator', 'staff', 'moderator', 'admin.desk']) name;
select lives_ok($$select app.register_user('ops_admin_fan', 'h', 'Fan', 'fan@example.test', null, null)$$,
  'a name that only contains admin is fine');
select is((select role::text from app.create_admin('support', 'hash-s', 'Support', null)), 'admin',
  'the operator may give an admin a reserved name');

/** Admin creation never captures a player */

select tests.sign_in('pat', 'p') as pat_session \gset
select tests.as_webhook();
select throws_ok($$select app.create_admin('PAT', 'hash-x', 'Pat', null)$$, 'BT409',
  '''pat'' is a player account; pass --promote to make it an administrator', 'a player''s username is refused');
select tests.reset_role();
select results_eq($$select role::text, (select password_hash::text from app.credentials where user_id = u.id), tests.open_sessions('pat')
                    from public.users u where username = 'pat'$$,
  $$values ('user', 'test-hash-pat', 1)$$, 'and the player keeps role, password and session');
select tests.as_webhook();
select is((select role::text from app.create_admin('pat', 'hash-x', 'Pat', null, p_promote => true)), 'admin',
  'with p_promote the player becomes an admin');
select is(tests.open_sessions('pat'), 0, 'and every session of theirs ends');
select is((select action::text from public.audit_log where target_id = tests.uid('pat') order by id desc limit 1),
  'user.promote_admin', 'the promotion is audited');

/** Sessions follow the account */

select tests.sign_in('quinn', 'q') as q1 \gset
select tests.sign_in('quinn', 'r') as q2 \gset
select tests.sign_in('ops_chief', 'c') as chief_session \gset
select tests.request_as('c');
select app.set_user_status(tests.uid('quinn'), 'suspended');
select tests.reset_role();
select is(tests.open_sessions('quinn'), 0, 'a change of status ends every session of the user');
select is(tests.open_sessions('ops_chief'), 1, 'but not the admin''s who made it');

select tests.sign_in('quinn', 'q') as q1 \gset
select tests.sign_in('quinn', 'r') as q2 \gset
select tests.request_as('q');
select app.change_password('new-hash-q', repeat('n', 64));
select tests.reset_role();
select results_eq($$select token_hash::text from app.sessions where user_id = tests.uid('quinn')$$, array[repeat('n', 64)],
  'a new password ends the other sessions, and the one that changed it goes on under a new token');

select tests.sign_in('quinn', 'r') as q2 \gset
update public.users set role = 'admin' where username = 'quinn';
select is(tests.open_sessions('quinn'), 0, 'a change of role ends every session (no session made it)');
update public.users set role = 'user' where username = 'quinn';

/** Expiry: 30 minutes idle for an admin, 7 days for a player, 30 days at most */

select is(app.session_expiry('admin', '2026-01-01 00:00+00', '2026-01-02 12:00+00'), '2026-01-02 12:30+00'::timestamptz,
  'an admin''s session ends 30 minutes after its last use');
select is(app.session_expiry('user', '2026-01-01 00:00+00', '2026-01-02 12:00+00'), '2026-01-09 12:00+00'::timestamptz,
  'a player''s 7 days after its last use');
select is(app.session_expiry('user', '2026-01-01 00:00+00', '2026-01-29 00:00+00'), '2026-01-31 00:00+00'::timestamptz,
  'and none lasts beyond 30 days after sign-in');

select tests.sign_in('ops_chief', 'd') as chief_d \gset
update app.sessions set last_seen_at = now() - interval '10 minutes', expires_at = now() + interval '20 minutes'
  where id = :chief_d;
select tests.reset_role();
select set_config('role', 'service_role', true);
select app.authenticate(repeat('d', 64), 'admin', '10.19.0.9');
select tests.reset_role();
select results_eq(format($$select expires_at - now(), ip::text from app.sessions where id = %s$$, :chief_d),
  $$values (interval '30 minutes', '10.19.0.9')$$, 'each use moves an admin''s end to 30 minutes from now and notes the address');
update app.sessions set created_at = now() - interval '30 days' + interval '5 minutes', last_seen_at = now() - interval '2 minutes'
  where id = :chief_d;
select set_config('role', 'service_role', true);
select app.authenticate(repeat('d', 64), 'admin');
select tests.reset_role();
select is((select expires_at from app.sessions where id = :chief_d), (select created_at + interval '30 days' from app.sessions where id = :chief_d),
  'but never past 30 days after sign-in');
update app.sessions set expires_at = now() - interval '1 second' where id = :chief_d;
select set_config('role', 'service_role', true);
select throws_ok($$select app.authenticate(repeat('d', 64), 'admin')$$, 'BT401', 'Not authenticated', 'an ended session is a 401');
select tests.reset_role();

/** The sessions a user sees and ends */

select tests.sign_in('quinn', 'q') as q1 \gset
select tests.sign_in('quinn', 's') as q3 \gset
select tests.request_as('q');
select is(jsonb_array_length(app.account_sessions()), 2, 'a user sees their open sessions');
select set_eq($$select jsonb_object_keys(e) from jsonb_array_elements(app.account_sessions()) e$$,
  array['id', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'expires_at', 'current'],
  'by public id, browser, address and times: never the token''s hash');
select results_eq($$select (e ->> 'id')::bigint from jsonb_array_elements(app.account_sessions()) e where (e ->> 'current')::boolean$$,
  array[:q1::bigint], 'the request''s own is marked');
select throws_ok(format($$select app.end_session(%s)$$, :chief_session), 'BT404', 'Session not found',
  'another user''s session cannot be ended');
select is(app.end_session(:q3), false, 'one of the other sessions ends by its id');
select tests.reset_role();
select results_eq($$select id from app.sessions where user_id = tests.uid('quinn')$$, array[:q1::bigint], 'and only that one');
select tests.request_as('q');
select app.end_all_sessions();
select tests.reset_role();
select is(tests.open_sessions('quinn'), 0, 'signing out everywhere ends every session, this one included');

/** The second factor */

select tests.as_webhook();
select app.set_admin_totp('ops_chief', tests.sealed('chief'), array(select 'code-hash-' || g from generate_series(1, 10) g),
  repeat('5a', 16));
select lives_ok(format($$select app.use_second_factor(%s, 1000, null)$$, tests.uid('ops_chief')), 'a verified time step signs in');
select throws_ok(format($$select app.use_second_factor(%s, 1000, null)$$, tests.uid('ops_chief')), 'BT401',
  'This code was already used: wait for the next one', 'the same step again is refused');
select throws_ok(format($$select app.use_second_factor(%s, 999, null)$$, tests.uid('ops_chief')), 'BT401',
  'This code was already used: wait for the next one', 'and so is an older one');
select lives_ok(format($$select app.use_second_factor(%s, null, 'code-hash-4')$$, tests.uid('ops_chief')), 'a recovery code works');
select throws_ok(format($$select app.use_second_factor(%s, null, 'code-hash-4')$$, tests.uid('ops_chief')), 'BT401',
  'Invalid code', 'once');
select throws_ok(format($$select app.use_second_factor(%s, 1001, null)$$, tests.uid('quinn')), 'BT401',
  'This code was already used: wait for the next one', 'an account without a second factor has no codes');

select tests.sign_in('support', 'e') as support_session \gset
select set_config('role', 'service_role', true);
select throws_ok($$select app.authenticate(repeat('e', 64), 'admin', null, true)$$, 'BT403',
  'Turn on two-factor sign-in on your Security screen to use the admin pages',
  'with the second factor required, an admin without one reaches no admin route');
select lives_ok($$select app.authenticate(repeat('e', 64), 'user', null, true)$$, 'but may use their account''s routes');
select throws_ok($$select app.confirm_totp_enrolment(tests.sealed('support'), 5, array[]::text[], repeat('5a', 16), repeat('E', 64))$$,
  'BT409', 'Start setting up two-factor sign-in first', 'a set-up cannot be confirmed before it starts');
select is(app.begin_totp_enrolment(tests.sealed('support')), 'support', 'an admin starts a set-up');
select throws_ok($$select app.confirm_totp_enrolment(tests.sealed('other'), 5, array[]::text[], repeat('5a', 16), repeat('E', 64))$$,
  'BT409', 'Start setting up two-factor sign-in first', 'only the secret being set up can be confirmed');
select lives_ok($$select app.confirm_totp_enrolment(tests.sealed('support'), 5, array(select 'h' || g from generate_series(1, 10) g),
                                                    repeat('5a', 16), repeat('E', 64))$$,
  'a confirmed set-up turns it on');
select is(app.totp_status(true),
  '{"enabled": true, "required": true, "available": true, "recovery_codes_left": 10, "locked_until": null}'::jsonb,
  'with ten recovery codes');
select lives_ok($$select app.authenticate(repeat('E', 64), 'admin', null, true)$$,
  'and the admin pages open, to the session''s new token');
select tests.reset_role();
select tests.sign_in('quinn', 'f') as quinn_f \gset
select tests.request_as('f');
select throws_ok($$select app.begin_totp_enrolment(tests.sealed('quinn'))$$, 'BT403', 'Two-factor sign-in is for administrators',
  'a player cannot set one up');
select tests.reset_role();

/** Throttling that spares the player's own browser */

create function tests.try_login(p_username text, p_ip text, p_device text)
returns text
language plpgsql
as $$
begin
  perform app.check_attempt('login', p_username, p_ip, p_device => p_device);
  return 'passed';
exception when sqlstate 'BT429' then
  return 'refused';
end;
$$;

select tests.as_webhook();
select app.create_session(tests.uid('quinn'), repeat('g', 64), null, '10.19.1.1', 'quinns-phone');
select tests.reset_role();
insert into app.login_attempts (action, username, ip, success)
select 'login', 'quinn', '10.19.2.' || g, false from generate_series(1, 60) g;
insert into app.login_attempts (action, username, ip, success)
select 'login', 'quinn', '10.19.1.200', false from generate_series(1, 30);
select tests.as_webhook();
select is(tests.try_login('quinn', '10.19.3.3', null), 'refused', 'after 60 failures from elsewhere a new browser waits');
select is(tests.try_login('quinn', '10.19.3.3', 'quinns-phone'), 'passed',
  'the browser that signed in as quinn does not, from any address');
select is(tests.try_login('quinn', '10.19.1.200', 'quinns-phone'), 'passed',
  'not even from an address someone else has spent its limits on');
select is(tests.try_login('quinn', '10.19.3.3', 'someone-elses-phone'), 'refused',
  'a device that signed in as another user is not exempt');
select app.conclude_attempt('login', 'quinn', '10.19.4.' || g, false, p_device => 'quinns-phone') from generate_series(1, 10) g;
select is(tests.try_login('quinn', '10.19.5.5', 'quinns-phone'), 'refused',
  'the browser''s own failures still count: 10 for the username in 15 minutes');

select * from finish();
rollback;
