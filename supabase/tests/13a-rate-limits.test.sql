-- Rate limits that cannot be turned against players, counting what happened: only finished attempts count,
-- each as what it turned out to be (supabase/schemas/13_rate_limits.sql). Times are passed in (p_now), so each
-- rule is checked at exact moments, Retry-After included.
begin;
set local search_path = tests, public;
select plan(32);

-- 'passed', or '429 after {Retry-After}s: {message}'
create function tests.try_attempt(p_action text, p_username text, p_ip text, p_at timestamptz)
returns text
language plpgsql
as $$
declare
  v_message text;
  v_detail text;
begin
  perform app.check_attempt(p_action, p_username, p_ip, p_at);
  return 'passed';
exception when sqlstate 'BT429' then
  get stacked diagnostics v_message = message_text, v_detail = pg_exception_detail;
  return format('429 after %ss: %s', v_detail, v_message);
end;
$$;

-- A wrong password: refused by the limits ('429 after …' as above), or told, and counted as a failure ('passed').
create function tests.wrong_guess(p_action text, p_username text, p_ip text, p_at timestamptz)
returns text
language plpgsql
as $$
declare
  v_result text := tests.try_attempt(p_action, p_username, p_ip, p_at);
begin
  if v_result = 'passed' then
    perform app.conclude_attempt(p_action, p_username, p_ip, false, p_at);
  end if;
  return v_result;
end;
$$;

-- 'told' (the outcome of a login recorded), or '429 after {Retry-After}s'
create function tests.try_conclude(p_username text, p_ip text, p_success boolean, p_at timestamptz)
returns text
language plpgsql
as $$
declare
  v_detail text;
begin
  perform app.conclude_attempt('login', p_username, p_ip, p_success, p_at);
  return 'told';
exception when sqlstate 'BT429' then
  get stacked diagnostics v_detail = pg_exception_detail;
  return format('429 after %ss', v_detail);
end;
$$;

select now() as t0 \gset
select tests.as_webhook();

/** Logins: per username and address together */

select app.conclude_attempt('login', 'vic', '10.16.0.66', false, :'t0'::timestamptz + g * interval '1 second')
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

select app.conclude_attempt('login', 'amy', '10.16.0.8', false, :'t0'::timestamptz) from generate_series(1, 9);
select app.conclude_attempt('login', 'amy', '10.16.0.8', true, :'t0'::timestamptz);
select is(tests.try_attempt('login', 'amy', '10.16.0.8', :'t0'::timestamptz + interval '1 second'), 'passed',
  'a successful login clears that username''s failures from that address');
select tests.reset_role();
select results_eq($$select count(*)::int from app.login_attempts where username = 'amy' and not success$$,
  array[0], 'none of them counts any more');
select tests.as_webhook();

/** Logins: attempts count once they have finished, and parallel ones cannot pass a limit */

-- 40 sign-ins of one player from one address start at once: every one passes the check before the password
-- work (nothing has finished yet) ...
select is((select count(*)::int from generate_series(1, 40) g
           where tests.try_attempt('login', 'nat_player', '10.16.0.40', :'t0'::timestamptz) = 'passed'), 40,
  'attempts still running count for nothing: 40 at once from one address all pass the check');
-- ... and every one succeeds.
select lives_ok($$select app.conclude_attempt('login', 'nat_player', '10.16.0.40', true, now()) from generate_series(1, 40)$$,
  'and 40 right passwords are 40 sign-ins');
-- An attacker's 40 parallel guesses also all pass the check, but only 10 outcomes are ever told.
select results_eq(format($$
  select r, count(*)::int from (
    select tests.try_conclude('guessed', '10.16.0.41', false, %L::timestamptz + g * interval '1 millisecond') r
    from generate_series(1, 40) g) t group by r order by r$$, :'t0'),
  $$values ('429 after 900s', 30), ('told', 10)$$,
  'of 40 parallel wrong guesses 10 are told; the other 30 are refused, with the real wait');
select is(tests.try_conclude('guessed', '10.16.0.41', true, :'t0'::timestamptz + interval '1.001 seconds'), '429 after 899s',
  'a right guess finishing after them is refused too, so it reveals nothing');
select tests.reset_role();
select results_eq($$select count(*)::int, bool_or(success) from app.login_attempts where username = 'guessed'$$,
  $$values (10, false)$$, 'a refused outcome is not recorded');
select tests.as_webhook();
select is(tests.try_attempt('login', 'guessed', '10.16.0.41', :'t0'::timestamptz + interval '900.001 seconds'), 'passed',
  'the pair may try again exactly when that Retry-After said');

/** Logins: per address, whatever the usernames */

select app.conclude_attempt('login', 'spray' || g, '10.16.0.99', false, :'t0'::timestamptz) from generate_series(1, 30) g;
select is(tests.try_attempt('login', 'spray31', '10.16.0.99', :'t0'::timestamptz + interval '1 minute'),
  '429 after 840s: Too many attempts. Please try again in a few minutes.', '30 failures from one address refuse it');

/** Logins: per username across all addresses: growing delays, never a lockout */

-- wen signed in from 10.17.9.9 yesterday evening
select app.conclude_attempt('login', 'wen', '10.17.9.9', true, :'t0'::timestamptz - interval '20 hours');
select app.conclude_attempt('login', 'wen', '10.17.0.' || g, false, :'t0'::timestamptz + g * interval '1 second')
from generate_series(0, 48) g;
select is(tests.wrong_guess('login', 'wen', '10.17.1.1', :'t0'::timestamptz + interval '49 seconds'), 'passed',
  '49 failures from many addresses slow nothing: the 50th attempt passes');
select is(tests.wrong_guess('login', 'wen', '10.17.1.2', :'t0'::timestamptz + interval '49 seconds'),
  '429 after 2s: Too many attempts for this username. Please try again in a minute.',
  'from 50 failures the next attempt waits 2 s after the latest');
select is(tests.wrong_guess('login', 'wen', '10.17.1.2', :'t0'::timestamptz + interval '51 seconds'), 'passed',
  'and passes once they have passed');
select is(tests.wrong_guess('login', 'wen', '10.17.1.3', :'t0'::timestamptz + interval '51 seconds'),
  '429 after 4s: Too many attempts for this username. Please try again in a minute.', 'then 4 s');
select is(tests.wrong_guess('login', 'wen', '10.17.1.3', :'t0'::timestamptz + interval '55 seconds'), 'passed',
  'passing after 4 s');
select is(tests.wrong_guess('login', 'wen', '10.17.1.4', :'t0'::timestamptz + interval '55 seconds'),
  '429 after 8s: Too many attempts for this username. Please try again in a minute.', 'then 8 s');
select tests.reset_role();
insert into app.login_attempts (action, username, ip, success, created_at)
select 'login', 'wen', '10.17.2.' || g, false, :'t0'::timestamptz + interval '56 seconds' from generate_series(1, 10) g;
select tests.as_webhook();
select is(tests.wrong_guess('login', 'wen', '10.17.1.5', :'t0'::timestamptz + interval '56 seconds'),
  '429 after 60s: Too many attempts for this username. Please try again in a minute.', 'at most 60 s');
select is(tests.wrong_guess('login', 'wen', '10.17.1.5', :'t0'::timestamptz + interval '116 seconds'), 'passed',
  'never a lockout: after 60 s the next attempt passes');

select is(tests.wrong_guess('login', 'wen', '10.17.9.9', :'t0'::timestamptz + interval '116 seconds'), 'passed',
  'an address the username signed in from within the last day is not slowed');
select is(tests.wrong_guess('login', 'wen', '10.17.9.10', :'t0'::timestamptz + interval '116 seconds'),
  '429 after 60s: Too many attempts for this username. Please try again in a minute.', 'other addresses still are');
select app.conclude_attempt('login', 'xan', '10.17.9.11', true, :'t0'::timestamptz - interval '25 hours');
select app.conclude_attempt('login', 'xan', '10.17.3.' || g, false, :'t0'::timestamptz) from generate_series(1, 50) g;
select is(tests.try_attempt('login', 'xan', '10.17.9.11', :'t0'::timestamptz),
  '429 after 2s: Too many attempts for this username. Please try again in a minute.',
  'a sign-in older than a day exempts nothing');

/** Registrations: failed ones per 15 minutes, successful ones per day */

select app.conclude_attempt('register', 'taken', '10.18.0.1', false, :'t0'::timestamptz) from generate_series(1, 10);
select is(tests.try_attempt('register', 'fresh', '10.18.0.1', :'t0'::timestamptz + interval '5 minutes'),
  '429 after 600s: Too many attempts. Please try again in a few minutes.',
  '10 failed registrations from one address refuse it for the rest of the 15 minutes');
select is(tests.try_attempt('register', 'fresh', '10.18.0.1', :'t0'::timestamptz + interval '15 minutes'), 'passed',
  'then it may register again');

select app.conclude_attempt('register', 'nat' || g, '10.18.0.2', true,
                            :'t0'::timestamptz - interval '20 hours' + g * interval '1 minute')
from generate_series(1, 99) g;
select is(tests.try_attempt('register', 'nat100', '10.18.0.2', :'t0'::timestamptz - interval '18 hours'), 'passed',
  'successful registrations do not count against the 15-minute limit: a shared network registers its 100th');
select app.conclude_attempt('register', 'nat100', '10.18.0.2', true, :'t0'::timestamptz - interval '18 hours');
select is(tests.try_attempt('register', 'nat101', '10.18.0.2', :'t0'::timestamptz),
  '429 after 14460s: Too many registrations from this network today. Please try again later.',
  'the 101st successful registration from one address within 24 hours is refused until the oldest is a day old');
select is(tests.try_attempt('register', 'nat101', '10.18.0.2', :'t0'::timestamptz + interval '14460 seconds'), 'passed',
  'and passes then');
select app.conclude_attempt('register', 'nat101', '10.18.0.2', true, :'t0'::timestamptz + interval '14460 seconds');
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
