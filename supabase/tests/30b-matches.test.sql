-- Match lifecycle: create (validation), start, live updates (innings/over rules), declare winner (the
-- outcome fixed at once, the bets settled by the run's batches: balances and ledger rows, second call
-- refused), abandon (refunds), audit.
begin;
set local search_path = tests, public;
select plan(49);

select tests.create_admin('ref');
select tests.create_user('pl1', 10000);
select tests.create_user('pl2', 10000);
select tests.create_user('pl3', 10000);

/** Create */

select tests.call_as('ref');
select throws_ok($$select app.create_match(null, 2, now())$$, 'BT400', 'Team 1 is required', 'team 1 required');
select throws_ok($$select app.create_match(1, null, now())$$, 'BT400', 'Team 2 is required', 'team 2 required');
select throws_ok($$select app.create_match(1, 2, null)$$, 'BT400', 'A match date is required.', 'date required');
select throws_ok($$select app.create_match(3, 3, now())$$, 'BT400',
  'Invalid teams selection: Team 1 and Team 2 cannot be the same team.', 'teams must differ');
select throws_ok($$select app.create_match(1, 99, now())$$, 'BT404', 'Team not found', 'teams must exist');
select throws_ok($$select app.create_match(1, 2, now(), 'bbl')$$, 'BT400',
  'Match type must be one of t20, odi, test, ipl', 'match type from the list');
select throws_ok(format($$select app.create_match(1, 2, now(), 't20', %L)$$, repeat('v', 256)), 'BT400',
  'Venue must be at most 255 characters', 'venue at most 255');
select results_eq($$select status::text, match_type::text, venue::text, team1_score, current_innings
                    from app.create_match(1, 2, '2030-04-01 19:30+05:30', 'ODI', '  Wankhede  ', 'EXT-1')$$,
  $$values ('upcoming', 'odi', 'Wankhede', null::varchar, null::int)$$, 'a match is created upcoming');
select results_eq($$select match_type::text, venue from app.create_match(7, 8, now())$$,
  $$values ('t20', null::varchar)$$, 'defaults: t20, no venue');
select throws_ok($$select app.create_match(1, 2, now(), 't20', null, 'EXT-1')$$, 'BT409',
  'A match with this external id already exists', 'external ids are unique');
select tests.reset_role();
select id as m from public.matches where external_match_id = 'EXT-1' \gset
select max(id) as m2 from public.matches where team1_id = 7 \gset

/** Start and live updates */

select tests.call_as('ref');
select throws_ok(format($$select app.update_live(%s, '10/0', null, 1, 1.0)$$, :m), 'BT409', 'Match is not live',
  'an upcoming match takes no live update');
select throws_ok(format($$select app.declare_winner(%s, 1)$$, :m), 'BT409', 'Match is not live',
  'an upcoming match cannot be settled');
select results_eq(format('select status::text, current_innings, current_over from app.start_match(%s)', :m),
  $$values ('live', 1, 0.0::numeric(3,1))$$, 'start: live, innings 1, over 0');
select throws_ok(format('select app.start_match(%s)', :m), 'BT409', 'Match is already live', 'start twice refused');
select results_eq(format($$select team1_score::text, team2_score::text, current_innings, current_over
                           from app.update_live(%s, '145/3', '12/0', 2, 2.5)$$, :m),
  $$values ('145/3', '12/0', 2, 2.5::numeric(3,1))$$, 'live update sets scores, innings and over');
select results_eq(format($$select team1_score::text, current_over from app.update_live(%s, null, null, null, 50)$$, :m),
  $$values ('145/3', 50.0::numeric(4,1))$$, 'null keeps a value; over 50 is the end of an odi innings');
select throws_ok(format($$select app.update_live(%s, null, null, 3, 1)$$, :m), 'BT400', 'Innings must be 1 or 2', 'innings 3');
select throws_ok(format($$select app.update_live(%s, null, null, 0, 1)$$, :m), 'BT400', 'Innings must be 1 or 2', 'innings 0');
select throws_ok(format($$select app.update_live(%s, null, null, 1, 12.6)$$, :m), 'BT400',
  'Over must be between 0 and 50 (overs.balls, balls 0-5)', '12.6 is not an over');
select throws_ok(format($$select app.update_live(%s, null, null, 1, 50.1)$$, :m), 'BT400',
  'Over must be between 0 and 50 (overs.balls, balls 0-5)', 'over above the 50 of an odi');
select throws_ok(format($$select app.update_live(%s, null, null, 1, -0.1)$$, :m), 'BT400',
  'Over must be between 0 and 50 (overs.balls, balls 0-5)', 'negative over');
select throws_ok(format($$select app.update_live(%s, null, null, 1, 1.25)$$, :m), 'BT400',
  'Over must be between 0 and 50 (overs.balls, balls 0-5)', 'two decimals');
select throws_ok(format($$select app.update_live(%s, %L, null, 1, 1)$$, :m, repeat('9', 51)), 'BT400',
  'Team 1 score must be at most 50 characters', 'scores at most 50 characters');
select throws_ok(format($$select app.update_live(%s, null, %L, 1, 1)$$, :m, repeat('9', 51)), 'BT400',
  'Team 2 score must be at most 50 characters', 'team 2 score at most 50 characters too');

/** Bets, then declare the winner */

-- over 20 of innings 2 closed betting (60a-house-risk); the close stays latched when the over is corrected
-- back to innings 1, until an admin resumes betting
select app.update_live(:m, null, null, 1, 10);
select app.set_betting_suspended(:m, false);
select tests.call_as('pl1');
select app.place_bet(:m, 1, 2000);   -- wins 6000
select tests.call_as('pl3');
select app.place_bet(:m, 2, 1000);   -- loses
select tests.call_as('pl2');
select app.place_bet(:m, 2, 3000);   -- loses
select app.place_bet(:m2, 7, 1000);  -- other match, stays placed

select tests.call_as('ref');
select throws_ok(format('select app.declare_winner(%s, null)', :m), 'BT400', 'Please select a winning team', 'a winner is required');
select throws_ok(format('select app.declare_winner(%s, 5)', :m), 'BT400', 'Winning team must be one of the two teams',
  'the winner plays in the match');
select results_eq(format($$select status::text, winning_team_id, match_result::text, app.match_json(m) -> 'settlement'
                           from app.declare_winner(%s, 1, 'anything the client says') m$$, :m),
  $$values ('completed', 1::bigint, 'Mumbai Indians won the match', '{"state": "settling", "settled": 0, "total": 3}'::jsonb)$$,
  'declare winner: completed, winner set, result computed by the server, its settlement run started');
select tests.reset_role();
select is(tests.balance('pl1'), 8000::bigint, 'the bets settle in batches after the answer: nothing has moved yet');
select tests.settle(:m);
select is((select bets from app.settlement_batches where match_id = :m), 3, 'the workers settle the run''s three bets, in one batch');
select is((select app.match_json(m) -> 'settlement' from public.matches m where m.id = :m),
  '{"state": "settled", "settled": 3, "total": 3}'::jsonb, 'and the match says so');
select is(tests.balance('pl1'), 14000::bigint, 'the winner is paid amount x 3 (10000 - 2000 + 6000)');
select is(tests.balance('pl2'), 6000::bigint, 'the loser is paid nothing (10000 - 3000 - 1000)');
select results_eq(format('select user_id, team_id, status::text from public.bets where match_id = %s order by id', :m),
  format($$values (%1$s::bigint, 1::bigint, 'won'), (%3$s, 2, 'lost'), (%2$s, 2, 'lost')$$, tests.uid('pl1'), tests.uid('pl2'), tests.uid('pl3')),
  'bets are won or lost');
select results_eq(format($$select t.type::text, t.amount from public.transactions t join public.bets b on t.reference_id = 'BET-' || b.id
                           where b.match_id = %s and t.type in ('bet_won', 'bet_lost') order by b.id$$, :m),
  $$values ('bet_won', 6000::bigint)$$,
  'a bet_won row of +potential_win; a lost bet moves no money and writes no ledger row');
select results_eq(format($$select user_id, result from app.bet_results(%s, array[%s, %s]::bigint[]) order by user_id$$,
                         :m, tests.uid('pl1'), tests.uid('pl3')),
  format($$values (%s::bigint, '{"match_id": %s, "match": "MI vs CSK", "outcome": "won", "amount": 6000, "team": "Mumbai Indians"}'::jsonb),
                  (%s, '{"match_id": %s, "match": "MI vs CSK", "outcome": "lost", "amount": 1000, "team": "Chennai Super Kings"}'::jsonb)$$,
         tests.uid('pl1'), :m, tests.uid('pl3'), :m),
  'the results pushed to the players who ask: theirs only, won with the payout or lost with the team backed');
select is((select status::text from public.bets where match_id = :m2), 'placed', 'bets of other matches are untouched');

select tests.call_as('ref');
select throws_ok(format('select app.declare_winner(%s, 2)', :m), 'BT409', 'Match is already completed',
  'a second declaration is refused');
select throws_ok(format('select app.start_match(%s)', :m), 'BT409', 'Match is already completed', 'a completed match cannot restart');
select throws_ok(format($$select app.update_live(%s, '1', '1', 1, 1)$$, :m), 'BT409', 'Match is already completed',
  'a completed match takes no live update');
select tests.reset_role();
select is(tests.balance('pl1'), 14000::bigint, 'still one payout');

/** Abandon */

select tests.call_as('ref');
select results_eq(format('select status::text, match_result::text, winning_team_id from app.abandon_match(%s)', :m2),
  $$values ('completed', 'Match abandoned', null::bigint)$$, 'an abandoned match is completed without a winner');
select tests.settle(:m2);
select is(tests.balance('pl2'), 7000::bigint, 'the stake is refunded');
select results_eq(format($$select b.status::text, t.type::text, t.amount from public.bets b
                           join public.transactions t on t.reference_id = 'BET-' || b.id and t.type = 'bet_refund'
                           where b.match_id = %s$$, :m2),
  $$values ('cancelled', 'bet_refund', 1000::bigint)$$, 'bet cancelled with a bet_refund ledger row');
select tests.call_as('ref');
select throws_ok(format('select app.abandon_match(%s)', :m2), 'BT409', 'Match is already completed', 'abandon twice refused');
select throws_ok('select app.start_match(999999999)', 'BT404', 'Match not found', 'unknown match');

/** Audit */

select tests.reset_role();
select set_eq(format($$select action::text from public.audit_log where target_type = 'match' and target_id = %s$$, :m),
  array['match.create', 'match.start', 'match.update_live', 'match.resume_betting', 'match.declare_winner'],
  'each admin change is audited');
select is((select after -> 'total_paid' from public.audit_log where action = 'match.declare_winner' and target_id = :m),
  '6000'::jsonb, 'the settlement audit row records the payout');
select is((select admin_id from public.audit_log where action = 'match.start' and target_id = :m), tests.uid('ref'),
  'with the acting admin');

select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

select * from finish();
rollback;
