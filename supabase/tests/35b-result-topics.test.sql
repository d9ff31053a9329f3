-- Results reach only their player: where Supabase Realtime exists, each settled batch broadcasts its players'
-- results to their private topics user:{id} in the transaction that settles it, and the topics' policy lets a
-- player receive their own topic and nobody send on any. Realtime itself is the stand-in of 000-setup.sql.
begin;
set local search_path = tests, public;
set local client_min_messages = warning;
select plan(14);

select is(app.enable_result_topics(), false, 'without Realtime the result topics are not created (and nothing fails)');
select tests.create_realtime_stand_in();
select is(app.enable_result_topics(), true, 'with Realtime they are');
select is(app.enable_result_topics(), true, 'and creating them again only refreshes them');

select tests.create_user('backer', 5000);
select tests.create_user('opponent', 5000);
select tests.create_match('live', 1, 2) as m \gset
select tests.call_as('backer');
select app.place_bet(:m, 1, 1000);
select app.place_bet(:m, 1, 2000);
select tests.call_as('opponent');
select app.place_bet(:m, 2, 1500);
select tests.call_as('tests_admin');
select app.declare_winner(:m, 1);
select tests.reset_role();
select is((select count(*)::int from realtime.messages), 0, 'declaring the winner pushes nothing: no bet is settled yet');

/** Batch by batch: a result is pushed when the batch of its player is settled */

-- Steps of two bets until the first batch (the backer's two bets: batches run in player order) is settled.
do $$
begin
  while not exists (select 1 from realtime.messages) loop
    perform app.settle_step(2);
  end loop;
end;
$$;
select results_eq('select topic, event, private, payload from realtime.messages',
  format($$values ('user:%s', 'result', true,
    jsonb_build_object('match_id', %s, 'match', 'MI vs CSK', 'outcome', 'won', 'amount', 9000, 'team', 'Mumbai Indians'))$$,
    tests.uid('backer'), :m),
  'the backer''s batch pushes one result on their private topic: both bets won, 3.0x of 3000');
select is((select status::text from public.bets where user_id = tests.uid('opponent')), 'placed',
  'while the opponent''s bet, in a later batch, is not settled and not pushed');

select tests.settle(:m);
select results_eq(format('select payload from realtime.messages where topic = %L', 'user:' || tests.uid('opponent')),
  format($$values (jsonb_build_object('match_id', %s, 'match', 'MI vs CSK', 'outcome', 'lost', 'amount', 1500,
    'team', 'Chennai Super Kings'))$$, :m),
  'the opponent''s batch pushes their loss');
select is((select count(*)::int from realtime.messages), 2, 'one result per player, not per bet');

select tests.create_match('live', 3, 4) as abandoned \gset
select tests.call_as('opponent');
select app.place_bet(:abandoned, 4, 1000);
select tests.call_as('tests_admin');
select app.abandon_match(:abandoned);
select tests.settle(:abandoned);
select is((select payload ->> 'outcome' || ' ' || (payload ->> 'amount') from realtime.messages where payload ->> 'match' = 'RCB vs KKR'),
  'refunded 1000', 'an abandoned match pushes the refund');

/** Who receives: acting as each player, and as a stranger */

select tests.act_as('backer');
select results_eq('select topic from realtime.messages', format($$values ('user:%s')$$, tests.uid('backer')),
  'a player receives their own topic only');
select tests.act_as('opponent');
select is((select count(*)::int from realtime.messages where topic <> 'user:' || tests.uid('opponent')), 0,
  'so does the other player');
select tests.act_as_anon();
select is((select count(*)::int from realtime.messages), 0, 'a visitor receives no result');

/** Who sends: nobody but the database */

select tests.act_as('backer');
select throws_ok(format($$insert into realtime.messages (topic, extension, event, payload, private)
    values ('user:%s', 'broadcast', 'result', '{"outcome": "won", "amount": 300000}', true)$$, tests.uid('backer')),
  '42501', null, 'a player cannot send a fake result, not even to themselves');
select throws_ok(format($$insert into realtime.messages (topic, extension, event, payload, private)
    values ('user:%s', 'broadcast', 'result', '{"outcome": "lost"}', true)$$, tests.uid('opponent')),
  '42501', null, 'nor to another player');

select tests.reset_role();
select * from finish();
rollback;
