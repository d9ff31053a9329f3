-- Live events: a match change is published as the public match itself (app.match_json),
-- by pg_notify for the API's live stream and, where Supabase Realtime exists, by Broadcast from the database
-- to the private topics `matches` and `match:{id}` (who may receive and send on them: 70b-realtime-authorization)
-- — of a settlement run, only its start and its end, since on Realtime each change is a message per viewer.
-- Realtime itself is the stand-in of 000-setup.sql, created inside this test's transaction (rolled back at the
-- end): realtime.messages records what realtime.send was given.
begin;
set local search_path = tests, public;
select plan(12);

select tests.create_match('live') as m \gset

/** The notification */

select ok(pg_get_functiondef('app.notify_match_change()'::regprocedure) like '%pg_notify(''match_updates'', app.match_json(new)::text)%',
  'the notification carries the match as the API answers it (app.match_json)');

/** Without Realtime */

select is(app.enable_match_broadcast(), false, 'where the realtime schema is missing, no broadcast is created');
select hasnt_trigger('public', 'matches', 'matches_broadcast', 'and public.matches has no broadcast trigger');

/** With Realtime */

select tests.create_realtime_stand_in();
select is(app.enable_match_broadcast(), true, 'where realtime.send exists, the broadcast is created');
select has_trigger('public', 'matches', 'matches_broadcast', 'on public.matches');

select tests.call_as('tests_admin');
select app.update_live(:m, '88/3', null, 1, 11.2);
select tests.reset_role();

select set_eq($$select topic, event, private from realtime.messages$$,
  format($$values ('matches', 'match', true), ('match:%s', 'match', true)$$, :m),
  'one change is sent once to the private topics matches and match:{id}');
select is((select count(distinct payload)::int from realtime.messages), 1, 'with the same payload');
select is((select payload ->> 'team1_score' from realtime.messages limit 1), '88/3', 'which is the new state itself');
select is((select (payload ->> 'version')::int from realtime.messages limit 1),
  (select version::int from public.matches where id = :m), 'with its version');
select set_eq($$select jsonb_object_keys(payload) from realtime.messages limit 1$$,
  $$select jsonb_object_keys(app.match_json(m)) from public.matches m limit 1$$,
  'and exactly the public fields of the API''s match answer');

/** A settlement run: its start and its end, not each batch */

select tests.create_user('backer', 5000);
select tests.create_user('opponent', 5000);
select tests.call_as('backer');
select app.place_bet(:m, 1, 1000);
select tests.call_as('opponent');
select app.place_bet(:m, 2, 1000);
select tests.reset_role();
delete from realtime.messages;
select tests.call_as('tests_admin');
select app.declare_winner(:m, 1);
select tests.settle(:m, 1);  -- one bet a batch: two batches
select tests.reset_role();
select is((select count(*)::int from app.settlement_batches where match_id = :m), 2, 'the run took two batches');
select results_eq(
  $$select payload -> 'settlement' from realtime.messages where topic = 'matches' order by id$$,
  $$values ('{"state": "settling", "settled": 0, "total": 2}'::jsonb), ('{"state": "settled", "settled": 2, "total": 2}'::jsonb)$$,
  'the crowd hears the run start and end, not the batch between');

select * from finish();
rollback;
