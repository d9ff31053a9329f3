-- The operator sets the price, and a decided match takes no bets. Prices per match side (the default_odds
-- setting for a new match, admins' changes validated, audited and refused once the match is closed), a bet
-- taken at the price of its moment and kept (a stale client price refused, writing nothing), settlement
-- paying each bet its own odds, the house's liability and the risk view at each bet's own odds with the
-- over-round; then the match decided in its second innings (target passed, all out, overs bowled) closing
-- betting, latched, and the live score's format. Written as the attempts of players who read the rules.
begin;
set local search_path = tests, public;
select plan(69);

select tests.create_admin('pricer');
select tests.create_user('hedge1', 100000);
select tests.create_user('hedge2', 100000);
select tests.create_user('punter', 100000);

/** Default price */

select tests.create_match('live', 1, 2) as m \gset
select tests.act_as_anon();
select results_eq(format($$select (j ->> 'team1_odds')::numeric, (j ->> 'team2_odds')::numeric
                           from (select app.match_json(m) as j from public.matches m where m.id = %s) x$$, :m),
  $$values (3.00, 3.00)$$, 'a new match takes default_odds, 3.00, on both sides, in the public answer');

select tests.call_as('punter');
select throws_ok($$select app.update_risk_settings('{"default_odds": 2.2}')$$, 'BT403', 'Admin access required',
  'a player cannot change the default price');
select tests.call_as('pricer');
select throws_ok($$select app.update_risk_settings('{"default_odds": 1.00}')$$, 'BT400',
  'Default odds must be between 1.01 and 100.00, with at most two decimals', 'a price pays more than the stake');
select throws_ok($$select app.update_risk_settings('{"default_odds": 100.01}')$$, 'BT400',
  'Default odds must be between 1.01 and 100.00, with at most two decimals', 'at most 100.00');
select throws_ok($$select app.update_risk_settings('{"default_odds": 1.855}')$$, 'BT400',
  'Default odds must be between 1.01 and 100.00, with at most two decimals', 'two decimals');
select throws_ok($$select app.update_risk_settings('{"default_odds": "1.90"}')$$, 'BT400',
  'Default odds must be between 1.01 and 100.00, with at most two decimals', 'a number');
select is((app.update_risk_settings('{"default_odds": 1.9}') #>> '{settings,default_odds}')::numeric, 1.90::numeric,
  'an admin sets the default price');
select tests.reset_role();
select results_eq($$select before -> 'default_odds', after -> 'default_odds' from public.audit_log
                    where action = 'settings.update' order by id desc limit 1$$,
  $$values ('3.00'::jsonb, '1.90'::jsonb)$$, 'audited with the old and new values');
select tests.create_match('upcoming', 3, 4) as priced \gset
select results_eq(format('select team1_odds, team2_odds from public.matches where id in (%s, %s) order by id', :m, :priced),
  $$values (3.00::numeric(5,2), 3.00::numeric(5,2)), (1.90, 1.90)$$,
  'a match created afterwards takes the new default; matches already priced keep theirs');
select tests.call_as('pricer');
select app.update_risk_settings('{"default_odds": 3}');

/** Admins price a match */

select tests.call_as('punter');
select throws_ok(format('select app.set_match_odds(%s, 1.5, 1.5)', :m), 'BT403', 'Admin access required',
  'a player cannot set a price');
select tests.call_as('pricer');
select throws_ok(format('select app.set_match_odds(%s, 1.00, 2)', :m), 'BT400', 'Odds must be between 1.01 and 100.00',
  'a price of 1.00 pays nothing');
select throws_ok(format('select app.set_match_odds(%s, 2, 100.01)', :m), 'BT400', 'Odds must be between 1.01 and 100.00',
  'nor above 100.00');
select throws_ok(format('select app.set_match_odds(%s, -2, null)', :m), 'BT400', 'Odds must be between 1.01 and 100.00',
  'nor negative');
select throws_ok(format('select app.set_match_odds(%s, 1.855, null)', :m), 'BT400', 'Odds must have at most two decimals',
  'a price has two decimals');
select throws_ok(format('select app.set_match_odds(%s, null, null)', :m), 'BT400', 'Send team1_odds, team2_odds or both',
  'a change names a price');
select throws_ok('select app.set_match_odds(999999999, 2, 2)', 'BT404', 'Match not found', 'an unknown match');
select version as v_before from public.matches where id = :m \gset
select results_eq(format('select team1_odds, team2_odds, version from app.set_match_odds(%s, 1.85, 1.95)', :m),
  format($$values (1.85::numeric(5,2), 1.95::numeric(5,2), %s::bigint)$$, :v_before + 1),
  'an admin prices both sides: a match change like any other (announced live)');
select results_eq(format('select team1_odds, team2_odds from app.set_match_odds(%s, null, 2.05)', :m),
  $$values (1.85::numeric(5,2), 2.05::numeric(5,2))$$, 'or one side, the other keeping its price');
select is((select version from app.set_match_odds(:m, 1.85, null)), :v_before + 2::bigint, 'the same price again changes nothing');
select tests.reset_role();
select results_eq(format($$select admin_id, before, after from public.audit_log
                           where action = 'match.set_odds' and target_id = %s order by id$$, :m),
  format($$values (%1$s::bigint, '{"team1_odds": 3.00, "team2_odds": 3.00}'::jsonb, '{"team1_odds": 1.85, "team2_odds": 1.95}'::jsonb),
                  (%1$s, '{"team1_odds": 1.85, "team2_odds": 1.95}', '{"team1_odds": 1.85, "team2_odds": 2.05}')$$, tests.uid('pricer')),
  'each change is audited with the admin, the old and the new prices');

/** A bet takes the price of its moment and keeps it */

select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 1, 1000, 3, 3000)', :m), 'BT409', 'Odds have changed',
  'a slip still showing the old price is refused');
select throws_ok(format('select app.place_bet(%s, 1, 1000, null, 3000)', :m), 'BT409', 'Odds have changed',
  'so is a potential win at the old price');
select tests.reset_role();
select is(tests.balance('punter'), 100000::bigint, 'the refusals moved nothing');
select is((select count(*)::int from public.bets where user_id = tests.uid('punter')), 0, 'and wrote no bet');
select tests.call_as('punter');
select results_eq(format('select odds, potential_win from app.place_bet(%s, 1, 1001, 1.85, 1852)', :m),
  $$values (1.85::numeric(5,2), 1852::bigint)$$, 'the price shown is taken: 1,001 × 1.85 = 1,851.85 pays 1,852');
select results_eq(format('select odds, potential_win from app.place_bet(%s, 1, 2000)', :m),
  $$values (1.85::numeric(5,2), 3700::bigint)$$, 'a bet without a price takes the current one');
select tests.call_as('pricer');
select app.set_match_odds(:m, 1.5, null);
select tests.call_as('punter');
select results_eq(format('select odds, potential_win from app.place_bet(%s, 1, 1001, 1.5)', :m),
  $$values (1.50::numeric(5,2), 1502::bigint)$$, 'after a change, the new price (1,001 × 1.50 = 1,501.5 rounds up to 1,502)');
select tests.reset_role();
select results_eq(format('select odds, potential_win from public.bets where match_id = %s order by id', :m),
  $$values (1.85::numeric(5,2), 1852::bigint), (1.85, 3700), (1.50, 1502)$$,
  'each bet keeps the price it was taken at');

/** Two accounts hedging a priced match */

select tests.create_match('live', 5, 6) as hedge \gset
select tests.call_as('pricer');
select app.set_match_odds(:hedge, 1.85, 1.95);
select tests.call_as('hedge1');
select app.place_bet(:hedge, 5, 1000);
select tests.call_as('hedge2');
select app.place_bet(:hedge, 6, 1000);
select tests.call_as('pricer');
select results_eq(format($$select (r ->> 'net_if_team1_wins')::bigint, (r ->> 'net_if_team2_wins')::bigint,
                                  (r ->> 'overround_percent')::numeric from app.match_risk(%s) r$$, :hedge),
  $$values (150::bigint, 50::bigint, 105.3)$$,
  'at 1.85 / 1.95 (over-round 105.3) the pair that backs both sides loses whichever side wins');
select app.declare_winner(:hedge, 6);
select tests.settle(:hedge);
select tests.reset_role();
select is(tests.balance('hedge1') + tests.balance('hedge2'), 199950::bigint,
  'settled: the two hold ₹50 less than they staked, where at 3.00 they held ₹1,000 more');
select results_eq(format($$select t.amount from public.transactions t join public.bets b on t.reference_id = 'BET-' || b.id
                           where b.match_id = %s and t.type = 'bet_won'$$, :hedge),
  $$values (1950::bigint)$$, 'the winning bet is paid at its own price');

/** Settlement pays each bet its own odds */

select tests.create_match('live', 7, 8) as two \gset
select tests.create_user('early', 10000);
select tests.create_user('late', 10000);
select tests.call_as('pricer');
select app.set_match_odds(:two, 2.5, null);
select tests.call_as('early');
select app.place_bet(:two, 7, 2000);
select tests.call_as('pricer');
select app.set_match_odds(:two, 1.2, null);
select tests.call_as('late');
select app.place_bet(:two, 7, 2000);
select tests.call_as('pricer');
select app.declare_winner(:two, 7);
select tests.settle(:two);
select tests.reset_role();
select results_eq($$select tests.balance('early'), tests.balance('late')$$, $$values (13000::bigint, 10400::bigint)$$,
  'two backers of the winner, one at 2.50 and one at 1.20: ₹5,000 and ₹2,400 for stakes of ₹2,000');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');

/** Liability at each bet's own odds */

select tests.create_match('live', 9, 10) as risky \gset
select tests.call_as('pricer');
select app.update_risk_settings('{"max_liability_per_match": 14000}');
select app.set_match_odds(:risky, 5, 1.2);
select tests.call_as('punter');
select lives_ok(format('select app.place_bet(%s, 9, 2000)', :risky), 'at 5.00 a stake of 2,000 risks 8,000');
select throws_ok(format('select app.place_bet(%s, 9, 2000)', :risky), 'BT409',
  'Stake too high for this match: at most ₹1,500 more can be staked on Gujarat Titans',
  'another 2,000 would take the loss to 16,000: what is left is counted at this price (6,000 / 4)');
select lives_ok(format('select app.place_bet(%s, 9, 1500)', :risky), 'and exactly that is taken: a loss of 14,000');
select tests.call_as('hedge1');
select lives_ok(format('select app.place_bet(%s, 10, 5000)', :risky), 'bets on the other side at 1.20 lower that loss');
select tests.call_as('pricer');
select is(app.match_risk(:risky) - 'betting',
  '{"team1": {"bets": 2, "staked": 3500, "payout_if_wins": 17500}, "team2": {"bets": 1, "staked": 5000, "payout_if_wins": 6000},
    "net_if_team1_wins": -9000, "net_if_team2_wins": 2500, "team1_odds": 5.00, "team2_odds": 1.20, "overround_percent": 103.3}'::jsonb,
  'the risk view: payouts at each bet''s own odds, the prices and their over-round');
select app.set_match_odds(:risky, 20, null);
select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 9, 1000)', :risky), 'BT409',
  'No more bets on Gujarat Titans are accepted for this match', 'at 20.00 a stake of 1,000 alone would risk 19,000 more');
select tests.reset_role();
select is_empty('select * from app.reconcile_books()', 'every book equals its bets');

/** A decided match takes no bets: the side batting second passes the target */

select tests.create_match('live', 1, 2) as chase \gset
select tests.call_as('pricer');
select app.update_risk_settings('{"betting_close_over": null}');
select is((select batting_first_team_id from app.update_live(:chase, '140/9', null, 1, 20.0)), 1::bigint,
  'the only team with a score in the first innings batted first');
select is((select betting::text from app.update_live(:chase, null, '138/3', 2, 12.2)), 'open',
  'in the second innings, short of the target, betting stays open');
select tests.call_as('punter');
select lives_ok(format('select app.place_bet(%s, 2, 1000)', :chase), 'and takes bets');
select tests.call_as('pricer');
select results_eq(format($$select m.betting::text, app.match_json(m) ->> 'betting' from app.update_live(%s, null, '141/3', 2, 12.3) m$$, :chase),
  $$values ('closed', 'closed')$$, '141/3 against 140/9: the target is passed and betting closes, in the answer too');
select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 2, 1000)', :chase), 'BT409', 'Betting is closed for this match',
  'so nobody bets on a result everyone can see');
select tests.call_as('pricer');
select is((select betting::text from app.update_live(:chase, null, '139/3', 2, 12.3)), 'closed',
  'a corrected score does not reopen it: the close is latched');
select is((select betting::text from app.update_live(:chase, null, '141/3', 2, 12.3)), 'closed', 'nor does the real score again');
select is((select betting::text from app.set_betting_suspended(:chase, false)), 'closed',
  'and an admin''s Resume leaves a decided match closed');

/** All out, and the overs bowled */

select tests.create_match('live', 3, 4) as allout \gset
select tests.call_as('pricer');
select app.update_live(:allout, '180/4', null, 1, 20.0);
select is((select betting::text from app.update_live(:allout, null, '120/9', 2, 17.1)), 'open', 'nine down in the chase: open');
select is((select betting::text from app.update_live(:allout, null, '120/10', 2, 17.2)), 'closed',
  'all out in the second innings: closed');
select tests.call_as('punter');
select throws_ok(format('select app.place_bet(%s, 3, 1000)', :allout), 'BT409', 'Betting is closed for this match',
  'an all-out chase takes no bet');

select tests.create_match('live', 5, 6) as first10 \gset
select tests.call_as('pricer');
select is((select betting::text from app.update_live(:first10, '98/10', null, 1, 16.4)), 'open',
  'the first innings all out decides nothing');

select tests.reset_role();
update public.matches set match_type = 'odi' where id = :first10;
select tests.call_as('pricer');
select is((select betting::text from app.update_live(:first10, null, '60/2', 2, 20.0)), 'open',
  'an odi''s second innings at over 20 is still being played');
select is((select betting::text from app.update_live(:first10, null, '98/2', 2, 21.0)), 'open',
  'level with the target is not past it');
select is((select betting::text from app.update_live(:first10, null, '97/2', 2, 50.0)), 'closed',
  'at over 50 the odi innings is over: closed');

select tests.create_match('live', 7, 8) as long \gset
select tests.reset_role();
update public.matches set match_type = 'test' where id = :long;
select tests.call_as('pricer');
select app.update_live(:long, null, '350/10', 1, 120.0);
select is((select betting::text from app.update_live(:long, '200/5', null, 2, 130.0)), 'open',
  'a test innings has no last over: over 130 of the second innings stays open');
select is((select betting::text from app.update_live(:long, '351/5', null, 2, 140.0)), 'closed',
  'and the target decides it');

/** Who batted first, given */

select tests.create_match('live', 9, 10) as given \gset
select tests.call_as('pricer');
select throws_ok(format('select app.update_live(%s, null, null, 1, 1.0, 3)', :given), 'BT400',
  'Batting first must be one of the two teams', 'a team that does not play cannot bat first');
select is((select batting_first_team_id from app.update_live(:given, '10/0', '12/1', 1, 1.0, 10)), 10::bigint,
  'an admin names the team batting first (both scores typed, so nothing to infer)');
select is((select betting::text from app.update_live(:given, '13/0', null, 2, 3.0)), 'closed',
  '13 against 12 with team 2 batting first: passed, closed');

select tests.create_match('live', 1, 2) as unknown \gset
select tests.call_as('pricer');
select results_eq(format($$select batting_first_team_id, betting::text from app.update_live(%s, '200/3', '150/2', 2, 15.0)$$, :unknown),
  $$values (null::bigint, 'open')$$,
  'while nobody knows who batted first, the scores decide nothing (only the overs)');

/** The live score's format */

select tests.create_match('live', 3, 4) as fmt \gset
select tests.call_as('pricer');
select throws_ok(format($$select app.update_live(%s, 'abc', null, 1, 1.0)$$, :fmt), 'BT400', 'Score must look like 145/3',
  'a score that is not runs/wickets is refused');
select throws_ok(format($$select app.update_live(%s, null, '150/11', 1, 1.0)$$, :fmt), 'BT400', 'Score must look like 145/3',
  'eleven wickets are not a score');
select throws_ok(format($$select app.update_live(%s, '145', null, 1, 1.0)$$, :fmt), 'BT400', 'Score must look like 145/3',
  'nor runs alone');
select results_eq(format($$select team1_score::text, team2_score from app.update_live(%s, ' 45/1 ', '', 1, 1.0)$$, :fmt),
  $$values ('45/1', null::varchar)$$, 'a score is stored trimmed; an empty one is allowed for a side that has not batted');

/** Closed matches keep their price */

select tests.call_as('pricer');
select throws_ok(format('select app.set_match_odds(%s, 2, 2)', :hedge), 'BT409', 'This match is closed',
  'a declared match cannot be priced');
select app.abandon_match(:fmt);
select throws_ok(format('select app.set_match_odds(%s, 2, 2)', :fmt), 'BT409', 'This match is closed',
  'nor an abandoned one');
select tests.settle();
select tests.reset_role();
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles');
select is_empty('select * from app.reconcile_books()', 'books reconcile');

select * from finish();
rollback;
