-- Reality checks and the deposit-limit prompt (51_reality_checks_and_statements.sql): the interval a player
-- chooses (audited, 60 until chosen), the play session's start (sign-in, again after 30 minutes away) and its
-- net result from the ledger, and the prompt before the first deposit, answered once.
begin;
set local search_path = tests, public;
select plan(27);

select tests.create_user('rc_a', 10000);
select tests.create_user('rc_b');
select tests.create_match('live', 1, 2) as live \gset
select tests.create_match('live', 3, 4) as other \gset

-- A session of rc_a opened at sign-in, and a request of it as the API makes one (claims, then service_role).
select tests.as_webhook();
select app.create_session(tests.uid('rc_a'), repeat('r', 64), 'Test browser', '10.24.0.1', null);
select tests.reset_role();
select created_at as signed_in_at from app.sessions where token_hash = repeat('r', 64) \gset
create function tests.request_as_rc_a()
returns void
language plpgsql
as $$
begin
  perform tests.reset_role();
  perform set_config('role', 'service_role', true);
  perform app.authenticate(repeat('r', 64), 'user', '10.24.0.1');
end;
$$;

/** The interval */

select tests.call_as('rc_a');
select is(app.reality_check(), '{"interval_minutes": 60}', 'a reality check every 60 minutes until the player chooses');
select is(app.set_reality_check(15), '{"interval_minutes": 15}', 'the player may choose 15 minutes');
select is(app.set_reality_check(null), '{"interval_minutes": null}', 'or none at all');
select is(app.set_reality_check(null), '{"interval_minutes": null}', 'choosing the same again is answered as before');
select throws_ok('select app.set_reality_check(45)', 'BT400', 'A reality check comes every 15, 30 or 60 minutes, or never',
  'only 15, 30 or 60 minutes');
select is(app.set_reality_check(30), '{"interval_minutes": 30}', 'and change their mind');
select tests.reset_role();
select results_eq(
  format($$select interval_minutes, changed_by = user_id from public.protection_changes
           where user_id = %s and kind = 'reality_check' order by id$$, tests.uid('rc_a')),
  $$values (15, true), (null, true), (30, true)$$,
  'each change of mind is in the player''s protection history, by the player; a repeat writes nothing');
select throws_ok(format($$update public.protection_changes set interval_minutes = 60 where user_id = %s$$, tests.uid('rc_a')),
  'BT403', 'Player protection history cannot be changed', 'and that history cannot be rewritten');
select throws_ok(
  format($$insert into public.protection_changes (user_id, changed_by, kind, interval_minutes, effective_at)
           values (%1$s, %1$s, 'reality_check', 45, now())$$, tests.uid('rc_a')),
  '23514', null, 'an interval other than 15, 30 or 60 minutes cannot be stored');

/** The play session */

select tests.request_as_rc_a();
select is((app.play_session() ->> 'started_at')::timestamptz, :'signed_in_at'::timestamptz, 'a play session begins at sign-in');
select is(app.play_session() - 'started_at' - 'now',
  '{"interval_minutes": 30, "staked": 0, "won": 0, "net": 0}', 'with nothing staked yet, and the player''s interval');
select is((app.play_session() ->> 'now')::timestamptz, now(), 'the server''s time comes with it (the app''s clock runs from it)');
select app.place_bet(:live, 1, 2000);
select app.place_bet(:other, 3, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:live, 1, null);
select app.abandon_match(:other);
select tests.settle();
select tests.request_as_rc_a();
select is(app.play_session() - 'started_at' - 'now',
  '{"interval_minutes": 30, "staked": 3000, "won": 7000, "net": 4000}',
  'the net result is what bets paid back (a win of 6000, a refund of 1000) minus what was staked');

-- The session was last used 29 minutes ago, and (as if the bets were from an earlier one) began after them.
select tests.reset_role();
update app.sessions set last_seen_at = now() - interval '29 minutes', play_started_at = now() + interval '1 second'
  where token_hash = repeat('r', 64);
select tests.request_as_rc_a();
select is((app.play_session() ->> 'started_at')::timestamptz, now() + interval '1 second',
  'a player back within 30 minutes plays on in the same session');
select is(app.play_session() -> 'net', '0', 'bets placed before the play session began do not count');
select tests.reset_role();
update app.sessions set last_seen_at = now() - interval '30 minutes' where token_hash = repeat('r', 64);
select tests.request_as_rc_a();
select is((app.play_session() ->> 'started_at')::timestamptz, now(), 'after 30 minutes away a new play session begins');
select is(app.play_session() -> 'net', '4000', 'and counts the bets from its start');

select tests.call_as('rc_a');
select throws_ok('select app.play_session()', 'BT401', 'Not authenticated', 'a play session needs a signed-in session');

/** The deposit-limit prompt */

select tests.call_as('rc_b');
select is(app.account_limits() -> 'limit_prompt_due', 'true', 'the prompt is due before a player''s first deposit');
select throws_ok($$select app.answer_limit_prompt('daily', null)$$, 'BT400', 'Choose a period and an amount for the limit',
  'a limit needs a period and an amount');
select is(app.answer_limit_prompt('weekly', 5000) -> 'deposit_limits', '{"daily": null, "weekly": 5000, "monthly": null}',
  '"Set limit" sets the limit at once');
select is(app.account_limits() -> 'limit_prompt_due', 'false', 'and the prompt is no longer due');
select throws_ok($$select app.answer_limit_prompt(null, null)$$, 'BT409', 'You have already answered the deposit limit question',
  'the prompt is answered once');
select tests.reset_role();
select results_eq(
  format($$select kind::text, period::text, amount from public.protection_changes where user_id = %s order by id$$, tests.uid('rc_b')),
  $$values ('deposit_limit', 'weekly', 5000::bigint), ('limit_prompt', 'weekly', 5000::bigint)$$,
  'the answer and the limit are both in the player''s protection history');

select tests.create_user('rc_c');
select tests.create_user('rc_d');
select tests.call_as('rc_c');
select is(app.answer_limit_prompt(null, null) -> 'limit_prompt_due', 'false', '"Not now" is an answer too: the prompt does not come back');
select tests.call_as('rc_d');
select app.request_deposit(1000, 'upi', tests.new_ref());
select is(app.account_limits() -> 'limit_prompt_due', 'false', 'a player who has already deposited is not asked');
select tests.call_as('rc_a');
select is(app.account_limits() -> 'limit_prompt_due', 'false', 'nor is one with deposits from before the prompt existed');

select * from finish();
rollback;
