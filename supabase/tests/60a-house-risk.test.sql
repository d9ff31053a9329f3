-- House risk: suspension and resumption by admins, betting closing by itself in play (the close
-- over of the second innings reached by a live update, pre-match-only books), the stake limits per bet and
-- per player per match, the liability limit per match (exactly at the limit passes), the book kept equal
-- to the bets through settlement, the risk view, and the settings (validated, audited, admins only).
begin;
set local search_path = tests, public;
select plan(84);

select tests.create_admin('risk');
select tests.create_user('rita', 300000);
select tests.create_user('ravi', 50000);
select tests.create_match('upcoming', 1, 2) as up \gset
select tests.create_match('live', 1, 2) as live \gset
select tests.create_match('completed', 3, 4) as done \gset

/** Defaults */

select results_eq('select * from app.current_risk_settings()',
  $$values (100000::bigint, 200000::bigint, 1000000::bigint, 15.0::numeric(3, 1), false, 180, 20, 50000::bigint, 500000::bigint,
            3.00::numeric(5, 2))$$,
  'defaults: ₹100,000 a bet, ₹200,000 a player a match, ₹1,000,000 liability, close at over 15.0 of innings 2, not pre-match only; '
  'bets pause after 180 s without a live update, 20 referral bonuses a month, credits of ₹50,000 need a second admin, ₹5,00,000 of credits an admin a day, '
  'new matches priced 3.00 on both sides');
select is((select betting::text from public.matches where id = :up), 'open', 'an upcoming match is open for bets');
select is((select betting::text from public.matches where id = :done), 'closed', 'a completed match is closed');
select tests.act_as_anon();
select is((select app.match_json(m) ->> 'betting' from public.matches m where m.id = :up), 'open',
  'the public match answer carries the betting state');
select ok((select not (app.match_json(m) ?| array['betting_suspended', 'betting_closed']) from public.matches m where m.id = :up),
  'but not the flags it comes from');

/** Suspension */

select tests.call_as('rita');
select throws_ok(format('select app.set_betting_suspended(%s, true)', :up), 'BT403', 'Admin access required',
  'a player cannot suspend betting');
select throws_ok(format('select app.match_risk(%s)', :up), 'BT403', 'Admin access required', 'nor read the risk view');

select tests.call_as('risk');
select results_eq(format('select betting::text, betting_suspended, version from app.set_betting_suspended(%s, true)', :up),
  $$values ('suspended', true, 2::bigint)$$, 'an admin suspends betting on an upcoming match: a match change (version 2)');
select tests.call_as('rita');
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :up), 'BT409', 'Betting is suspended for this match',
  'a suspended match takes no bet');
select tests.call_as('risk');
select is((select version from app.set_betting_suspended(:up, true)), 2::bigint, 'suspending again changes nothing');
select tests.reset_role();
select is((select count(*)::int from public.audit_log where action = 'match.suspend_betting' and target_id = :up), 1,
  'one audit row for the one change');
select tests.call_as('risk');
select results_eq(format('select betting::text, version from app.set_betting_suspended(%s, false)', :up),
  $$values ('open', 3::bigint)$$, 'resuming opens it again');
select tests.call_as('rita');
select lives_ok(format('select app.place_bet(%s, 1, 1000)', :up), 'and bets are taken again');
select tests.reset_role();
select results_eq(format($$select action::text, before ->> 'betting', after ->> 'betting', admin_id from public.audit_log
                           where target_id = %s and action like 'match.%%_betting' order by id$$, :up),
  format($$values ('match.suspend_betting', 'open', 'suspended', %1$s::bigint), ('match.resume_betting', 'suspended', 'open', %1$s)$$,
         tests.uid('risk')),
  'suspension and resumption are audited with the admin');
select tests.call_as('risk');
select is((select betting::text from app.set_betting_suspended(:live, true)), 'suspended', 'a live match can be suspended too');
select throws_ok(format('select app.set_betting_suspended(%s, true)', :done), 'BT409', 'Match is already completed',
  'a completed match cannot be suspended');
select throws_ok('select app.set_betting_suspended(999999999, true)', 'BT404', 'Match not found', 'unknown match');
select is((select betting::text from app.set_betting_suspended(:live, false)), 'open', 'resumed');

/** Automatic close in play, latched */

select tests.call_as('risk');
select is((select betting::text from app.update_live(:live, '160/4', '120/2', 2, 14.5)), 'open',
  'over 14.5 of the second innings: still open');
select tests.call_as('rita');
select lives_ok(format('select app.place_bet(%s, 2, 1000)', :live), 'bets are taken at 14.5');
select tests.call_as('risk');
select results_eq(format($$select betting::text, (app.match_json(m) ->> 'betting') from app.update_live(%s, null, null, null, 15.0) m$$, :live),
  $$values ('closed', 'closed')$$, 'the live update that reaches over 15.0 of innings 2 closes betting, in the answer too');
select tests.call_as('rita');
select throws_ok(format('select app.place_bet(%s, 2, 1000)', :live), 'BT409', 'Betting is closed for this match',
  'a closed match takes no bet');
select tests.call_as('risk');
select is((select betting::text from app.set_betting_suspended(:live, true)), 'closed', 'closed wins over suspended');
select is((select betting::text from app.set_betting_suspended(:live, false)), 'closed',
  'and resuming a match still past its close point does not reopen it');
select is((select betting::text from app.update_live(:live, null, null, null, 14.5)), 'closed',
  'a live update correcting the over back does not reopen it: the close is latched');
select is((select betting::text from app.update_live(:live, null, null, 1, 18.0)), 'closed', 'nor does any later live update');
select tests.call_as('rita');
select throws_ok(format('select app.place_bet(%s, 2, 1000)', :live), 'BT409', 'Betting is closed for this match',
  'so nobody bets on a corrected over');
select tests.call_as('risk');
select is((select betting::text from app.set_betting_suspended(:live, false)), 'open',
  'an admin''s Resume reopens it once the rule no longer closes it');
select tests.reset_role();
select results_eq(format($$select admin_id, before ->> 'betting', after ->> 'betting' from public.audit_log
                           where target_id = %s and action = 'match.resume_betting' order by id desc limit 1$$, :live),
  format($$values (%s::bigint, 'closed', 'open')$$, tests.uid('risk')), 'and the Resume is audited with the admin');
select tests.call_as('risk');
select is((select betting::text from app.update_live(:live, null, null, 1, 18.0)), 'open', 'the first innings never closes');

select tests.call_as('risk');
select version as live_version from app.update_live(:live, null, null, 2, 12.0) \gset
select tests.call_as('risk');
select app.update_risk_settings('{"betting_close_over": 10}');
select tests.reset_role();
select results_eq(format('select betting::text, version from public.matches where id = %s', :live),
  format($$values ('closed', %s::bigint)$$, :live_version + 1),
  'a lower close over closes a live match already past it, as a match change (announced)');
select tests.call_as('risk');
select app.update_risk_settings('{"betting_close_over": null}');
select tests.reset_role();
select is((select betting::text from public.matches where id = :live), 'closed',
  'removing the close over does not reopen a match it closed');
select tests.call_as('risk');
select is((select betting::text from app.set_betting_suspended(:live, false)), 'open', 'Resume does');
select is((select betting::text from app.update_live(:live, null, null, 2, 19.5)), 'open',
  'with no close over, betting stays open to the last ball');
select is((select betting::text from app.update_live(:live, null, null, 2, 20.0)), 'closed',
  'and closes when the last over of the second innings has been bowled: the match is decided');
select is((select betting::text from app.set_betting_suspended(:live, false)), 'closed', 'which Resume does not reopen');

select tests.create_match('live', 5, 6) as live2 \gset
select tests.call_as('risk');
select app.update_risk_settings('{"betting_pre_match_only": true}');
select tests.reset_role();
select is((select betting::text from public.matches where id = :live2), 'closed', 'pre-match only closes live matches at once');
select is((select betting::text from public.matches where id = :up), 'open', 'upcoming matches stay open');
select tests.call_as('risk');
select is((select betting::text from app.start_match(:up)), 'closed', 'and close when they start');
select app.update_risk_settings('{"betting_pre_match_only": false}');
select tests.reset_role();
select is((select betting::text from public.matches where id = :up), 'closed',
  'switching it off leaves the matches it closed closed (latched) until an admin resumes them');

/** Stake per bet */

select tests.create_match('live', 7, 8) as stakes \gset
select tests.call_as('rita');
select throws_ok(format('select app.place_bet(%s, 7, 100001)', :stakes), 'BT409', 'Maximum stake per bet is ₹100,000',
  'a stake above the limit per bet is refused');
select lives_ok(format('select app.place_bet(%s, 7, 100000)', :stakes), 'a stake of exactly the limit is taken');

/** Stake per player per match */

select lives_ok(format('select app.place_bet(%s, 7, 100000)', :stakes), 'a second one: ₹200,000 on the match, exactly the limit');
select throws_ok(format('select app.place_bet(%s, 7, 1000)', :stakes), 'BT409',
  'Maximum stake per player per match is ₹200,000: you have reached it for this match', 'no more from this player');
select tests.create_match('upcoming', 3, 4) as other \gset
select tests.call_as('rita');
select lives_ok(format('select app.place_bet(%s, 3, 1000)', :other), 'bets on other matches are not counted');
select tests.call_as('risk');
select app.update_risk_settings('{"max_stake_per_player_match": 250000}');
select tests.call_as('rita');
select throws_ok(format('select app.place_bet(%s, 7, 60000)', :stakes), 'BT409',
  'Maximum stake per player per match is ₹250,000: you can stake ₹50,000 more on this match', 'the message says what is left');
select tests.call_as('ravi');
select lives_ok(format('select app.place_bet(%s, 8, 1000)', :stakes), 'another player may still bet');

/** Liability per match */

select tests.create_match('upcoming', 9, 10) as book \gset
select tests.call_as('risk');
select app.update_risk_settings('{"max_liability_per_match": 10000}');
select tests.reset_role();
select tests.balance('rita') as rita_before \gset
select tests.call_as('rita');
select lives_ok(format('select app.place_bet(%s, 9, 5000)', :book),
  '₹5,000 on GT: the house would pay 15,000 against 5,000 staked, a loss of exactly the limit');
select throws_ok(format('select app.place_bet(%s, 9, 1000)', :book), 'BT409',
  'No more bets on Gujarat Titans are accepted for this match', 'one rupee more of loss is refused');
select tests.reset_role();
select is(tests.balance('rita'), (:rita_before - 5000)::bigint, 'the refused bet moved no money');
select tests.call_as('ravi');
select lives_ok(format('select app.place_bet(%s, 10, 2000)', :book), 'a bet on the other side lowers the loss should GT win');
select tests.call_as('rita');
select throws_ok(format('select app.place_bet(%s, 9, 3000)', :book), 'BT409',
  'Stake too high for this match: at most ₹1,000 more can be staked on Gujarat Titans', 'the message says what GT can still take');
select lives_ok(format('select app.place_bet(%s, 9, 1000)', :book), 'and exactly that is taken');
select tests.call_as('risk');
select is(app.match_risk(:book),
  '{"team1": {"bets": 2, "staked": 6000, "payout_if_wins": 18000}, "team2": {"bets": 1, "staked": 2000, "payout_if_wins": 6000},
    "net_if_team1_wins": -10000, "net_if_team2_wins": 2000, "betting": "open",
    "team1_odds": 3.00, "team2_odds": 3.00, "overround_percent": 66.7}'::jsonb,
  'the risk view: per side bets, stakes and payouts, the house''s net per winner, the betting state, the prices and their over-round');
select throws_ok('select app.match_risk(999999999)', 'BT404', 'Match not found', 'the risk view of an unknown match is a 404');
select tests.reset_role();
select is_empty('select * from app.reconcile_books()', 'every book equals its bets');

/** Liability: the fast path far from the limit, the exact path near it and for large bets */

select tests.create_user('bookie', 100000);
select tests.create_match('live', 3, 4) as fast \gset
select tests.call_as('risk');
select app.update_risk_settings('{"max_liability_per_match": 150000}');
select tests.call_as('bookie');
select app.place_bet(:fast, 4, 1000) from generate_series(1, 10);
select tests.reset_role();
select ok((select count(*) from app.match_book where match_id = :fast and stripe <> 0 and bets > 0) > 0,
  'small bets far from the limit go to any stripe of their side (the fast path): a loss of 20,000 should KKR win');
select tests.call_as('bookie');
select lives_ok(format('select app.place_bet(%s, 4, 50000)', :fast), 'a large bet is decided exactly: a loss of 120,000');
select lives_ok(format('select app.place_bet(%s, 4, 10000)', :fast),
  'near the limit a small bet is decided exactly too: 140,000, within the limit but not with the fast path''s reserve');
select throws_ok(format('select app.place_bet(%s, 4, 10000)', :fast), 'BT409',
  'Stake too high for this match: at most ₹5,000 more can be staked on Kolkata Knight Riders', '160,000 is past the limit');
select lives_ok(format('select app.place_bet(%s, 4, 5000)', :fast), 'a loss of exactly the limit passes');
select tests.call_as('risk');
select is((app.match_risk(:fast) ->> 'net_if_team2_wins')::bigint, -150000::bigint, 'the risk view sums the stripes');
select tests.reset_role();
select is_empty('select * from app.reconcile_books()', 'and every book still equals its bets');

/** Settlement keeps the book */

select tests.call_as('risk');
select app.start_match(:book);
select app.declare_winner(:book, 10);
select tests.settle(:book);
select tests.call_as('risk');
select is(app.match_risk(:book) - 'betting',
  '{"team1": {"bets": 2, "staked": 6000, "payout_if_wins": 18000}, "team2": {"bets": 1, "staked": 2000, "payout_if_wins": 6000},
    "net_if_team1_wins": -10000, "net_if_team2_wins": 2000, "team1_odds": 3.00, "team2_odds": 3.00, "overround_percent": 66.7}'::jsonb,
  'a settled match keeps its final book: the house won 2,000');
select is(app.match_risk(:book) ->> 'betting', 'closed', 'and is closed');
select app.abandon_match(:stakes);
select tests.settle(:stakes);
select tests.call_as('risk');
select is(app.match_risk(:stakes) - 'betting',
  '{"team1": {"bets": 0, "staked": 0, "payout_if_wins": 0}, "team2": {"bets": 0, "staked": 0, "payout_if_wins": 0},
    "net_if_team1_wins": 0, "net_if_team2_wins": 0, "team1_odds": 3.00, "team2_odds": 3.00, "overround_percent": 66.7}'::jsonb,
  'an abandoned match''s book is empty: every stake was refunded');
select tests.reset_role();
select is_empty('select * from app.reconcile_books()', 'books still equal their bets after settlement and abandonment');
select is_empty('select * from app.reconcile_player_stakes()', 'every player''s total on each match equals their bets');
select is(tests.reconcile_count(), 0::bigint, 'and the ledger reconciles');

/** Settings */

select tests.call_as('rita');
select throws_ok('select app.get_risk_settings()', 'BT403', 'Admin access required', 'a player cannot read the settings');
select throws_ok($$select app.update_risk_settings('{"max_stake_per_bet": 5000}')$$, 'BT403', 'Admin access required',
  'nor change them');
select tests.call_as('risk');
select throws_ok($$select app.update_risk_settings('{"max_stake_per_bet": 999}')$$, 'BT400',
  'Maximum stake per bet must be between ₹1,000 and ₹1,000,000,000', 'the stake per bet is at least the minimum bet');
select throws_ok($$select app.update_risk_settings('{"max_stake_per_bet": 1000.5}')$$, 'BT400',
  'Maximum stake per bet must be between ₹1,000 and ₹1,000,000,000', 'whole rupees');
select throws_ok($$select app.update_risk_settings('{"max_stake_per_player_match": "lots"}')$$, 'BT400',
  'Maximum stake per player per match must be between ₹1,000 and ₹1,000,000,000', 'a number');
select throws_ok($$select app.update_risk_settings('{"max_liability_per_match": 1000000001}')$$, 'BT400',
  'Liability limit per match must be between ₹0 and ₹1,000,000,000', 'at most ₹1,000,000,000');
select throws_ok($$select app.update_risk_settings('{"betting_close_over": 15.6}')$$, 'BT400',
  'Close over must be empty or between 0 and 20 (overs.balls, balls 0-5)', '15.6 is not an over');
select throws_ok($$select app.update_risk_settings('{"betting_pre_match_only": "yes"}')$$, 'BT400',
  'Pre-match only must be true or false', 'a boolean');
select throws_ok($$select app.update_risk_settings('{"referral_bonus_amount": 500}')$$, 'BT400',
  'Unknown setting: referral_bonus_amount', 'only the house-risk settings');
select throws_ok($$select app.update_risk_settings('[]')$$, 'BT400', 'Settings must be a JSON object', 'an object');
select throws_ok($$select app.update_risk_settings('{"max_stake_per_bet": 5000, "betting_close_over": 21}')$$, 'BT400',
  'Close over must be empty or between 0 and 20 (overs.balls, balls 0-5)', 'one invalid value refuses the whole change');
select is((select max_stake_per_bet from app.get_risk_settings()), 100000::bigint, 'so nothing changed');

select tests.reset_role();
select count(*) as audits from public.audit_log where action = 'settings.update' \gset
select tests.call_as('risk');
select results_eq($$select (s ->> 'max_stake_per_bet')::bigint, (s ->> 'max_liability_per_match')::bigint,
                           (s ->> 'betting_close_over')::numeric(3, 1)
                    from (select app.update_risk_settings('{"max_stake_per_bet": 50000, "max_liability_per_match": 150000, "betting_close_over": 16.3}') -> 'settings' as s) r$$,
  $$values (50000::bigint, 150000::bigint, 16.3::numeric(3, 1))$$, 'an admin changes settings and gets them back');
select tests.reset_role();
select results_eq($$select before, after, admin_id, target_type::text from public.audit_log
                    where action = 'settings.update' order by id desc limit 1$$,
  format($$values ('{"max_stake_per_bet": 100000, "betting_close_over": null}'::jsonb,
                   '{"max_stake_per_bet": 50000, "betting_close_over": 16.3}'::jsonb, %s::bigint, 'settings')$$, tests.uid('risk')),
  'the change is audited: old and new values of the keys that changed, and who changed them');
select tests.call_as('risk');
select app.update_risk_settings('{"max_stake_per_bet": 50000}');
select tests.reset_role();
select is((select count(*) from public.audit_log where action = 'settings.update'), (:audits + 1)::bigint,
  'setting a value it already has writes no audit row');

select * from finish();
rollback;
