-- The request path: app.authenticate resolves the session and sets the claims the rest
-- of the request runs with; the answer shapes (app.user_json, app.match_json, app.bet_json, app.bets_json)
-- are what the API sends; matches carry a version that grows with every change; settlement's cheaper CHECK
-- keeps the rule.
begin;
set local search_path = tests, public;
select plan(26);

select tests.create_user('pia', 5000);
select tests.create_admin('ada');
select tests.create_admin('sus');
select tests.create_match('live') as m \gset
select tests.reset_role();
-- (a change of status ends the user's sessions: suspend first, then sign in)
update public.users set status = 'suspended' where username = 'sus';
insert into app.sessions (token_hash, user_id, expires_at) values
  (repeat('1', 64), tests.uid('pia'), now() + interval '1 day'),
  (repeat('2', 64), tests.uid('ada'), now() + interval '1 day'),
  (repeat('3', 64), tests.uid('sus'), now() + interval '1 day'),
  (repeat('4', 64), tests.uid('pia'), now() - interval '1 second');

/** app.authenticate (as the API calls it: the connection's own role, then service_role) */

select results_eq($$select user_id, role, status from app.authenticate(repeat('1', 64), 'user')$$,
  format($$values (%s::bigint, 'user'::text, 'active'::text)$$, tests.uid('pia')), 'a session resolves to its user');
select is(app.current_user_id(), tests.uid('pia'), 'and the claims it set name that user for the rest of the transaction');
select ok(not app.is_admin(), 'a player''s claims are not an admin''s');
select tests.reset_role();
select throws_ok($$select app.authenticate(repeat('9', 64), 'user')$$, 'BT401', 'Not authenticated', 'an unknown token is a 401');
select throws_ok($$select app.authenticate(repeat('4', 64), 'user')$$, 'BT401', 'Not authenticated', 'an expired session is a 401');
select throws_ok($$select app.authenticate(null, 'user')$$, 'BT401', 'Not authenticated', 'no token is a 401');
select throws_ok($$select app.authenticate(repeat('1', 64), 'admin')$$, 'BT403', 'Admin access required',
  'a player on an admin route is a 403');
select throws_ok($$select app.authenticate(repeat('3', 64), 'admin')$$, 'BT403', 'Admin access required',
  'a suspended admin on an admin route is a 403');
select lives_ok($$select app.authenticate(repeat('3', 64), 'user')$$, 'a suspended admin may still use player routes');
select ok(not app.is_admin(), 'but the claims do not make them an admin for RLS');
select tests.reset_role();
select lives_ok($$select app.authenticate(repeat('2', 64), 'admin')$$, 'an active admin passes an admin route');
select ok(app.is_admin(), 'and the claims say admin');
select tests.reset_role();
select throws_ok($$select app.authenticate(repeat('1', 64), 'everyone')$$, 'BT400', 'Unknown access level',
  'only the access levels of the API exist');

/** Answer shapes */

select tests.call_as('pia');
select app.add_bank_account('Pia Player', '123456789012', 'HDFC0001234', 'HDFC Bank') as account \gset
select tests.call_as('pia');
select app.request_withdrawal(1500, (:'account'::public.bank_accounts).id);
select tests.act_as('pia');
select results_eq($$select (j ->> 'wallet_balance')::bigint, (j ->> 'available_balance')::bigint, (j ->> 'pending_withdrawals')::bigint
                    from (select app.user_json(u) j from public.users u where u.id = app.current_user_id()) s$$,
  $$values (5000::bigint, 3500::bigint, 1500::bigint)$$,
  'a user''s answer carries the balance, what may be spent now, and what waits for approval');
select ok((select not (app.user_json(u) ? 'password_hash') from public.users u where u.id = app.current_user_id()),
  'and never a password hash');

select tests.act_as_anon();
select set_eq(format($$select jsonb_object_keys(app.match_json(m)) from public.matches m where m.id = %s$$, :m),
  array['id', 'team1_id', 'team2_id', 'start_time', 'status', 'match_type', 'venue', 'team1_score', 'team2_score',
        'current_innings', 'current_over', 'match_result', 'winning_team_id', 'external_match_id', 'created_at',
        'updated_at', 'version', 'team1', 'team2', 'additionalDetails', 'betting', 'betting_pauses_at', 'settlement',
        'team1_odds', 'team2_odds', 'batting_first_team_id', 'correction_reason'],
  'a match''s answer has the public fields of a match, its teams, its version and its betting state, readable by a visitor');
select is((select app.match_json(m) -> 'team2' ->> 'short_name' from public.matches m where m.id = :m), 'CSK',
  'with its teams embedded');

select tests.call_as('pia');
select app.place_bet(:m, 1, 1000) as bet \gset
select tests.act_as('pia');
select is((select app.bet_json(b) -> 'match' ->> 'id' from public.bets b where b.user_id = app.current_user_id()),
  :'m', 'a bet''s answer embeds its match');

/** A page of bets (app.bets_json): each match built once, the bets in the order given */

select tests.create_match('upcoming', 3, 4) as m2 \gset
select tests.call_as('pia');
select app.place_bet(:m2, 4, 1000);
select app.place_bet(:m, 1, 1000);
select tests.act_as('pia');
select is((select array_agg((e ->> 'id')::bigint order by n)
           from json_array_elements((select app.bets_json(array_agg(b order by b.id desc)) from public.bets b)) with ordinality x(e, n)),
  (select array_agg(id order by id desc) from public.bets where user_id = tests.uid('pia')),
  'a page of bets answers them in the order given');
select is((select app.bets_json(array_agg(b order by b.id))::jsonb from public.bets b),
  (select jsonb_agg(app.bet_json(b) order by b.id) from public.bets b),
  'each bet of a page as app.bet_json answers it alone: the row, its match and its team, on two matches');
select tests.reset_role();
set local track_functions = 'pl';
select coalesce((select calls from pg_stat_xact_user_functions where schemaname = 'app' and funcname = 'match_json'), 0)
  as before \gset
select app.bets_json(array_agg(b)) from public.bets b;
select is((select calls from pg_stat_xact_user_functions where schemaname = 'app' and funcname = 'match_json') - :before,
  2::bigint, 'and each of the two matches is built once for the three bets');
select is(app.bets_json('{}')::text, '[]', 'no bets: an empty array');
select is(app.bets_json(null)::text, '[]', 'and no page (an empty page''s array_agg): an empty array too');

/** Match versions */

select tests.reset_role();
select is((select version from public.matches where id = :m), 2::bigint, 'a match created (1) and started has version 2');
select tests.call_as('tests_admin');
select app.update_live(:m, '10/0', null, 1, 1.2);
select app.update_live(:m, '20/0', null, 1, 2.4);
select tests.reset_role();
select is((select version from public.matches where id = :m), 4::bigint, 'every change adds one');

/** The cheaper username CHECK keeps its rule */

select throws_ok($$update public.users set username = 'pia player' where username = 'pia'$$, '23514', null,
  'a username with a space is still refused by the table itself');

select * from finish();
rollback;
