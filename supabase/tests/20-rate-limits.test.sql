-- Rate limits that cannot be turned against players (20261122110100_fair_rate_limits.sql). Times are passed
-- in (app.begin_attempt's p_now), so each rule is checked at exact moments, Retry-After included.
begin;
set local search_path = tests, public;
select plan(26);

-- 'passed', or '429 after {Retry-After}s: {message}'
create function tests.try_attempt(p_action text, p_username text, p_ip text, p_at timestamptz)
returns text
language plpgsql
as $$
declare
  v_message text;
  v_detail text;
begin
  perform app.begin_attempt(p_action, p_username, p_ip, p_at);
  return 'passed';
exception when sqlstate 'BT429' then
  get stacked diagnostics v_message = message_text, v_detail = pg_exception_detail;
  return format('429 after %ss: %s', v_detail, v_message);
end;
$$;

select now() as t0 \gset
select tests.as_webhook();

/** Logins: per username and address together */

select app.begin_attempt('login', 'vic', '10.16.0.66', :'t0'::timestamptz + g * interval '1 second')
from generate_series(0, 9) g;
select is(tests.try_attempt('login', 'Vic', '10.16.0.66', :'t0'::timestamptz + interval '10 seconds'),
  '429 after 890s: Too many attempts. Please try again in a few minutes.',
  '10 failures for a username from one address refuse that pair until the oldest leaves the 15 minutes');
select is(tests.try_attempt('login', 'vic', '10.16.0.7', :'t0'::timestamptz + interval '10 seconds'), 'passed',
  'the same username from the player''s own address is not locked out');
select is(tests.try_attempt('login', 'someone_else', '10.16.0.66', :'t0'::timestamptz + interval '10 seconds'), 'passed',
  'the attacker''s address may still try other usernames (up to the per-address ceiling)');
select is(tests.try_attempt('login', 'vic', '10.16.0.66', :'t0'::timestamptz + interval '900 seconds'), 'passed',
  'the pair may try again once 890 s have passed');

select app.begin_attempt('login', 'amy', '10.16.0.8', :'t0'::timestamptz) from generate_series(1, 9);
select app.finish_attempt(app.begin_attempt('login', 'amy', '10.16.0.8', :'t0'::timestamptz), true);
select is(tests.try_attempt('login', 'amy', '10.16.0.8', :'t0'::timestamptz + interval '1 second'), 'passed',
  'a successful login clears that username''s failures from that address');
select tests.reset_role();
select results_eq($$select count(*)::int from app.login_attempts where username = 'amy' and not success$$,
  array[1], 'only the attempt now in flight counts');
select tests.as_webhook();

/** Logins: per address, whatever the usernames */

select app.begin_attempt('login', 'spray' || g, '10.16.0.99', :'t0'::timestamptz) from generate_series(1, 30) g;
select is(tests.try_attempt('login', 'spray31', '10.16.0.99', :'t0'::timestamptz + interval '1 minute'),
  '429 after 840s: Too many attempts. Please try again in a few minutes.', '30 failures from one address refuse it');

/** Logins: per username across all addresses: growing delays, never a lockout */

-- wen signed in from 10.17.9.9 yesterday evening
select app.finish_attempt(app.begin_attempt('login', 'wen', '10.17.9.9', :'t0'::timestamptz - interval '20 hours'), true);
select app.begin_attempt('login', 'wen', '10.17.0.' || g, :'t0'::timestamptz + g * interval '1 second')
from generate_series(0, 48) g;
select is(tests.try_attempt('login', 'wen', '10.17.1.1', :'t0'::timestamptz + interval '49 seconds'), 'passed',
  '49 failures from many addresses slow nothing: the 50th attempt passes');
select is(tests.try_attempt('login', 'wen', '10.17.1.2', :'t0'::timestamptz + interval '49 seconds'),
  '429 after 2s: Too many attempts for this username. Please try again in a minute.',
  'from 50 failures the next attempt waits 2 s after the latest');
select is(tests.try_attempt('login', 'wen', '10.17.1.2', :'t0'::timestamptz + interval '51 seconds'), 'passed',
  'and passes once they have passed');
select is(tests.try_attempt('login', 'wen', '10.17.1.3', :'t0'::timestamptz + interval '51 seconds'),
  '429 after 4s: Too many attempts for this username. Please try again in a minute.', 'then 4 s');
select is(tests.try_attempt('login', 'wen', '10.17.1.3', :'t0'::timestamptz + interval '55 seconds'), 'passed',
  'passing after 4 s');
select is(tests.try_attempt('login', 'wen', '10.17.1.4', :'t0'::timestamptz + interval '55 seconds'),
  '429 after 8s: Too many attempts for this username. Please try again in a minute.', 'then 8 s');
select tests.reset_role();
insert into app.login_attempts (action, username, ip, success, created_at)
select 'login', 'wen', '10.17.2.' || g, false, :'t0'::timestamptz + interval '56 seconds' from generate_series(1, 10) g;
select tests.as_webhook();
select is(tests.try_attempt('login', 'wen', '10.17.1.5', :'t0'::timestamptz + interval '56 seconds'),
  '429 after 60s: Too many attempts for this username. Please try again in a minute.', 'at most 60 s');
select is(tests.try_attempt('login', 'wen', '10.17.1.5', :'t0'::timestamptz + interval '116 seconds'), 'passed',
  'never a lockout: after 60 s the next attempt passes');

select is(tests.try_attempt('login', 'wen', '10.17.9.9', :'t0'::timestamptz + interval '116 seconds'), 'passed',
  'an address the username signed in from within the last day is not slowed');
select is(tests.try_attempt('login', 'wen', '10.17.9.10', :'t0'::timestamptz + interval '116 seconds'),
  '429 after 60s: Too many attempts for this username. Please try again in a minute.', 'other addresses still are');
select app.finish_attempt(app.begin_attempt('login', 'xan', '10.17.9.11', :'t0'::timestamptz - interval '25 hours'), true);
select app.begin_attempt('login', 'xan', '10.17.3.' || g, :'t0'::timestamptz) from generate_series(1, 50) g;
select is(tests.try_attempt('login', 'xan', '10.17.9.11', :'t0'::timestamptz),
  '429 after 2s: Too many attempts for this username. Please try again in a minute.',
  'a sign-in older than a day exempts nothing');

/** Registrations: failed ones per 15 minutes, successful ones per day */

select app.begin_attempt('register', 'taken', '10.18.0.1', :'t0'::timestamptz) from generate_series(1, 10);
select is(tests.try_attempt('register', 'fresh', '10.18.0.1', :'t0'::timestamptz + interval '5 minutes'),
  '429 after 600s: Too many attempts. Please try again in a few minutes.',
  '10 failed (or in-flight) registrations from one address refuse it for the rest of the 15 minutes');
select is(tests.try_attempt('register', 'fresh', '10.18.0.1', :'t0'::timestamptz + interval '15 minutes'), 'passed',
  'then it may register again');

select app.finish_attempt(app.begin_attempt('register', 'nat' || g, '10.18.0.2',
                                            :'t0'::timestamptz - interval '20 hours' + g * interval '1 minute'), true)
from generate_series(1, 99) g;
select is(tests.try_attempt('register', 'nat100', '10.18.0.2', :'t0'::timestamptz - interval '18 hours'), 'passed',
  'successful registrations do not count against the 15-minute limit: a shared network registers its 100th');
select tests.reset_role();
select id as nat100_attempt from app.login_attempts where action = 'register' and username = 'nat100' \gset
select tests.as_webhook();
select app.finish_attempt(:nat100_attempt, true);
select is(tests.try_attempt('register', 'nat101', '10.18.0.2', :'t0'::timestamptz),
  '429 after 14460s: Too many registrations from this network today. Please try again later.',
  'the 101st successful registration from one address within 24 hours is refused until the oldest is a day old');
select is(tests.try_attempt('register', 'nat101', '10.18.0.2', :'t0'::timestamptz + interval '14460 seconds'), 'passed',
  'and passes then');
select is(tests.try_attempt('register', 'other', '10.18.0.3', :'t0'::timestamptz), 'passed', 'other addresses may register');

/** Purge and privileges */

select tests.reset_role();
select is((select count(*)::int from app.login_attempts where created_at < :'t0'::timestamptz + interval '14460 seconds' - interval '1 day'), 0,
  'attempts older than a day are purged');
select ok(not has_function_privilege('service_role', 'app.address_limit_wait(text, text, boolean, int, interval, timestamptz)', 'execute')
          and not has_function_privilege('service_role', 'app.refuse_attempt(text, int)', 'execute'),
  'the internal helpers are executable by no API role');

select * from finish();
rollback;
