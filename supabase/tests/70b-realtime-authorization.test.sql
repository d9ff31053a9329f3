-- The match topics of Supabase Realtime are private: where Realtime exists, every change of a match is
-- broadcast on the private topics `matches` and `match:{id}`; every client (a visitor with the anon key, a
-- signed-in player) may receive them, and no client may send on them (or on any topic): only the database
-- does, so nobody can show the pages a fake match state. Realtime itself is the stand-in of 000-setup.sql.
begin;
set local search_path = tests, public;
set local client_min_messages = warning;
select plan(16);

select is(app.enable_match_broadcast(), false, 'without Realtime the match broadcast is not created (and nothing fails)');
select tests.create_realtime_stand_in();
select is(app.enable_match_broadcast(), true, 'with Realtime it is');
select is(app.enable_match_broadcast(), true, 'and creating it again only refreshes it');
select is(app.enable_result_topics(), true, 'beside the result topics');

/** The policies: receive only, for the client roles */

select policies_are('realtime', 'messages',
  array['match topics: every client receives', 'result topics: a player receives their own'],
  'realtime.messages has the match and result topics'' policies, no other');
select policy_cmd_is('realtime', 'messages', 'match topics: every client receives', 'select',
  'the match topics'' policy is for receiving');
select policy_roles_are('realtime', 'messages', 'match topics: every client receives', array['anon', 'authenticated'],
  'for visitors and signed-in users alike');
select is_empty($$select policyname from pg_policies where schemaname = 'realtime' and tablename = 'messages' and cmd <> 'SELECT'$$,
  'no policy lets a client send (insert), change or delete a message');
select ok((select relrowsecurity from pg_class where oid = 'realtime.messages'::regclass), 'row level security is on');

/** The database sends: a change of a match goes to both private topics */

select tests.create_match('upcoming') as m \gset
select tests.call_as('tests_admin');
select app.start_match(:m);
select tests.reset_role();
select results_eq(
  format($$select topic, event, private, (payload ->> 'status') from realtime.messages
           where payload ->> 'id' = '%s' order by id$$, :m),
  format($$values ('matches', 'match', true, 'upcoming'), ('match:%s', 'match', true, 'upcoming'),
                  ('matches', 'match', true, 'live'), ('match:%s', 'match', true, 'live')$$, :m, :m),
  'creating and starting the match broadcasts each state on both private topics');

/** Every client receives */

select tests.act_as_anon();
select is((select count(*)::int from realtime.messages where topic in ('matches', 'match:' || :m)), 4,
  'a visitor receives the match topics');
select tests.create_user('watcher', 0);
select tests.act_as('watcher');
select is((select count(*)::int from realtime.messages where topic in ('matches', 'match:' || :m)), 4,
  'so does a signed-in player');

/** Nobody but the database sends */

select tests.act_as_anon();
select throws_ok($$insert into realtime.messages (topic, extension, event, payload, private)
    values ('matches', 'broadcast', 'match', '{"id": 1, "status": "completed", "winner_id": 2}', true)$$,
  '42501', null, 'a visitor cannot send a fake match state on matches');
select throws_ok(format($$insert into realtime.messages (topic, extension, event, payload, private)
    values ('match:%s', 'broadcast', 'match', '{"status": "completed"}', true)$$, :m),
  '42501', null, 'nor on a match''s own topic');
select tests.act_as('watcher');
select throws_ok($$insert into realtime.messages (topic, extension, event, payload, private)
    values ('matches', 'broadcast', 'match', '{"id": 1, "status": "completed"}', true)$$,
  '42501', null, 'nor can a signed-in player');
select throws_ok($$insert into realtime.messages (topic, extension, event, payload, private)
    values ('lobby', 'broadcast', 'chat', '{"text": "free money at evil.example"}', true)$$,
  '42501', null, 'on any topic');

select tests.reset_role();
select * from finish();
rollback;
