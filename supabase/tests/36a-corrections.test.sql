-- A wrong result corrected: proposed by one admin, approved by another, applied by the settlement job batch
-- by batch. Each bet's earlier payout or refund is taken back and the bet settled anew, once (a batch cut off
-- mid-way is settled again whole); won -> lost, lost -> won, result -> abandoned and abandoned -> result move
-- the balances they should and the books reconcile after each; only a reversal takes a wallet below zero, and
-- such a player may not bet or withdraw until a deposit brings the balance back.
begin;
set local search_path = tests, public;
select plan(83);

select tests.create_admin('corr_a');
select tests.create_admin('corr_b');
select tests.create_user('corr_p1', 5000);
select tests.create_user('corr_p2', 5000);

-- a live match (teams 1 and 2, both at 3.00) with p1's 1000 on team 1 and p2's 1000 on team 2
create function pg_temp.match_with_bets() returns bigint language plpgsql as $$
declare
  v_match bigint := tests.create_match('live');
begin
  perform tests.call_as('corr_p1');
  perform app.place_bet(v_match, 1, 1000);
  perform tests.call_as('corr_p2');
  perform app.place_bet(v_match, 2, 1000);
  perform tests.reset_role();
  return v_match;
end;
$$;
-- p_admin proposes a correction of a match; answers its id
create function pg_temp.propose(p_admin text, p_match bigint, p_team bigint, p_abandon boolean default false)
returns bigint language plpgsql as $$
declare
  v_id bigint;
begin
  perform tests.call_as(p_admin);
  v_id := (app.propose_result_correction(p_match, p_team, null, p_abandon, 'Wrong team tapped in the dialog') ->> 'id')::bigint;
  perform tests.reset_role();
  return v_id;
end;
$$;
create function pg_temp.approve(p_admin text, p_id bigint) returns jsonb language plpgsql as $$
declare
  v_answer jsonb;
begin
  perform tests.call_as(p_admin);
  v_answer := app.decide_result_correction(p_id, true);
  perform tests.reset_role();
  return v_answer;
end;
$$;
-- the ledger rows of a player's bet on a match, oldest first
create function pg_temp.rows_of(p_user text, p_match bigint) returns table (type text, amount bigint, reference text)
language sql as $$
  select t.type::text, t.amount, t.reference_id::text
  from public.transactions t
  join public.bets b on t.reference_id like 'BET-' || b.id || '%'
  where b.match_id = p_match and b.user_id = tests.uid(p_user)
  order by t.id
$$;

/** Who may correct, and when */

select tests.create_match('live') as live_match \gset
select tests.call_as('corr_a');
select throws_ok(format($$select app.propose_result_correction(%s, 2, null, false, 'Wrong team tapped')$$, :live_match),
  'BT409', 'Only a completed or abandoned match can be corrected', 'a live match cannot be corrected');
select tests.call_as('corr_p1');
select throws_ok(format($$select app.propose_result_correction(%s, 2, null, false, 'Wrong team tapped')$$, :live_match),
  'BT403', null, 'a player cannot propose a correction');
select tests.reset_role();

select pg_temp.match_with_bets() as m1 \gset
select tests.call_as('tests_admin');
select app.declare_winner(:m1, 1);
select tests.settle();
select is(tests.balance('corr_p1'), 7000::bigint, 'p1 won 3000 on team 1');
select is(tests.balance('corr_p2'), 4000::bigint, 'p2 lost 1000 on team 2');

select tests.call_as('corr_a');
select throws_ok(format($$select app.propose_result_correction(%s, 2, null, false, 'too short')$$, :m1),
  'BT400', 'Please give a reason of at least 10 characters', 'a reason under 10 characters is a 400');
select throws_ok(format($$select app.propose_result_correction(%s, 2, null, false, %L)$$, :m1, repeat('x', 201)),
  'BT400', 'The reason must be at most 200 characters', 'a reason over 200 characters is a 400');
select throws_ok(format($$select app.propose_result_correction(%s, null, null, false, 'Wrong team tapped')$$, :m1),
  'BT400', 'Please select a winning team or abandon the match', 'neither a team nor abandon is a 400');
select throws_ok(format($$select app.propose_result_correction(%s, 2, null, true, 'Wrong team tapped')$$, :m1),
  'BT400', 'Give either a winning team or abandon, not both', 'both a team and abandon is a 400');
select throws_ok(format($$select app.propose_result_correction(%s, 3, null, false, 'Wrong team tapped')$$, :m1),
  'BT400', 'Winning team must be one of the two teams', 'a team that did not play is a 400');
select throws_ok(format($$select app.propose_result_correction(%s, 1, null, false, 'Wrong team tapped')$$, :m1),
  'BT409', 'This is the result of the match already', 'the result it has is no correction');
select throws_ok($$select app.propose_result_correction(999999999, 1, null, false, 'Wrong team tapped')$$,
  'BT404', 'Match not found', 'an unknown match is a 404');
select tests.reset_role();

-- eight days after its declaration, too late
update app.settlement_runs set created_at = now() - interval '8 days' where match_id = :m1;
select tests.call_as('corr_a');
select throws_ok(format($$select app.propose_result_correction(%s, 2, null, false, 'Wrong team tapped')$$, :m1),
  'BT409', 'A result can be corrected within 7 days of its declaration only', 'a correction after 7 days is a 409');
select tests.reset_role();
update app.settlement_runs set created_at = now() - interval '6 days' where match_id = :m1;

/** won -> lost and lost -> won, with two admins */

select pg_temp.propose('corr_a', :m1, 2) as c1 \gset
select results_eq(format($$select status::text, result::text, reason::text, previous_result::text
                          from app.result_corrections where id = %s$$, :c1),
  $$values ('pending', 'Chennai Super Kings won the match', 'Wrong team tapped in the dialog', 'Mumbai Indians won the match')$$,
  'the proposal waits for a second admin, with the new result and the one it replaces');
select is((select count(*) from public.audit_log where action = 'match.correction_proposed' and target_id = :m1), 1::bigint,
  'the proposal is audited');
select tests.call_as('corr_b');
select throws_ok(format($$select app.propose_result_correction(%s, null, null, true, 'Another mistake seen')$$, :m1),
  'BT409', 'A correction of this match is already running', 'a second correction while one is pending is a 409');
select tests.call_as('corr_a');
select throws_ok(format('select app.decide_result_correction(%s, true)', :c1),
  'BT403', 'A second administrator must approve this correction', 'the proposer cannot approve it');
select tests.reset_role();
select is((select winning_team_id from public.matches where id = :m1), 1::bigint, 'nothing changed yet');

select is(pg_temp.approve('corr_b', :c1) ->> 'status', 'applying', 'another admin approves: it applies');
select results_eq(format($$select winning_team_id, match_result::text, correction_reason::text, settlement_settled, settlement_total
                          from public.matches where id = %s$$, :m1),
  $$values (2::bigint, 'Chennai Super Kings won the match', 'Wrong team tapped in the dialog', 0::bigint, 2::bigint)$$,
  'the match has its new result and reason at once, its two bets to settle again');
select tests.call_as('corr_b');
select throws_ok(format('select app.decide_result_correction(%s, true)', :c1),
  'BT409', 'This correction has already been decided', 'a second decision is a 409');
select throws_ok(format($$select app.propose_result_correction(%s, 1, null, false, 'Back to the first result')$$, :m1),
  'BT409', 'A correction of this match is already running', 'a second correction while one applies is a 409');
select tests.reset_role();

select tests.settle();
select is(tests.balance('corr_p1'), 4000::bigint, 'won -> lost: the 3000 paid is taken back');
select is(tests.balance('corr_p2'), 7000::bigint, 'lost -> won: 3000 paid');
select results_eq(format($$select * from pg_temp.rows_of('corr_p1', %s)$$, :m1),
  format($$values ('bet_placed', -1000::bigint, 'BET-%1$s'), ('bet_won', 3000::bigint, 'BET-%1$s'),
                  ('settlement_reversal', -3000::bigint, 'BET-%1$s-C%2$s')$$,
         (select id from public.bets where match_id = :m1 and user_id = tests.uid('corr_p1')), :c1),
  'the winner''s rows: the stake, the payout, and the reversal naming the correction');
select results_eq(format($$select * from pg_temp.rows_of('corr_p2', %s)$$, :m1),
  format($$values ('bet_placed', -1000::bigint, 'BET-%1$s'), ('bet_won', 3000::bigint, 'BET-%1$s-C%2$s')$$,
         (select id from public.bets where match_id = :m1 and user_id = tests.uid('corr_p2')), :c1),
  'the new winner''s payout names the correction');
select results_eq(format($$select status::text from public.bets where match_id = %s order by user_id$$, :m1),
  $$values ('lost'), ('won')$$, 'the bets carry their new outcome');
select results_eq(format($$select status::text, applied_at is not null from app.result_corrections where id = %s$$, :c1),
  $$values ('applied', true)$$, 'the run''s last batch marks the correction applied');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile after won -> lost');
select is_empty('select * from app.reconcile_books()', 'the match''s book agrees with its bets');
select is((select count(*) from public.audit_log where action = 'match.correction_approved' and target_id = :m1), 1::bigint,
  'the approval is audited');
select results_eq(format($$select r.result ->> 'corrected', r.result ->> 'outcome' from app.bet_results(%s, array[tests.uid('corr_p2')]) r$$, :m1),
  $$values ('true', 'won')$$, 'the result pushed to the players says it is a correction');

/** result -> abandoned */

select pg_temp.match_with_bets() as m2 \gset
select tests.call_as('tests_admin');
select app.declare_winner(:m2, 1);
select tests.settle();
select is(tests.balance('corr_p1'), 6000::bigint, 'p1 won 3000 on the second match');
select is(tests.balance('corr_p2'), 6000::bigint, 'p2 lost 1000 on it');
-- declared a second earlier (this test is one transaction, so now() does not move): its line is its own
update app.match_lines set booked_at = booked_at - interval '1 second' where match_id = :m2;
update app.settlement_runs set created_at = created_at - interval '1 second' where match_id = :m2;
select pg_temp.propose('corr_b', :m2, null, true) as c2 \gset
select pg_temp.approve('corr_a', :c2);
select tests.settle();
select is(tests.balance('corr_p1'), 4000::bigint, 'result -> abandoned: the payout taken back, the stake refunded');
select is(tests.balance('corr_p2'), 7000::bigint, 'the loser''s stake refunded');
select results_eq(format($$select status::text, winning_team_id, match_result::text from public.matches where id = %s$$, :m2),
  $$values ('completed', null::bigint, 'Match abandoned')$$, 'the match is abandoned');
select results_eq(format($$select distinct status::text from public.bets where match_id = %s$$, :m2),
  $$values ('cancelled')$$, 'its bets are cancelled');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile after result -> abandoned');
select results_eq(format($$select bets, stakes, paid, refunded, stakes - paid - refunded from app.match_lines
                          where match_id = %s order by booked_at$$, :m2),
  $$values (2, 2000::bigint, 3000::bigint, 0::bigint, -1000::bigint), (2, 0::bigint, -3000::bigint, 2000::bigint, 1000::bigint)$$,
  'the books show the correction as its own line: the payout taken back, the stakes refunded, its house result');
select is_empty('select * from app.reconcile_books()', 'the abandoned match''s book is empty again');

/** abandoned -> result */

select pg_temp.match_with_bets() as m3 \gset
select tests.call_as('tests_admin');
select app.abandon_match(:m3);
select tests.settle();
select is(tests.balance('corr_p1'), 4000::bigint, 'the third match abandoned: p1 refunded');
select pg_temp.propose('corr_a', :m3, 2) as c3 \gset
select pg_temp.approve('corr_b', :c3);
select tests.settle();
select is(tests.balance('corr_p1'), 3000::bigint, 'abandoned -> result: the refund taken back, the bet lost');
select is(tests.balance('corr_p2'), 9000::bigint, 'the refund taken back, 3000 paid');
select results_eq(format($$select * from pg_temp.rows_of('corr_p2', %s)$$, :m3),
  format($$values ('bet_placed', -1000::bigint, 'BET-%1$s'), ('bet_refund', 1000::bigint, 'BET-%1$s'),
                  ('settlement_reversal', -1000::bigint, 'BET-%1$s-C%2$s'), ('bet_won', 3000::bigint, 'BET-%1$s-C%2$s')$$,
         (select id from public.bets where match_id = :m3 and user_id = tests.uid('corr_p2')), :c3),
  'the refund reversed and the bet paid, each row once');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile after abandoned -> result');
select is_empty('select * from app.reconcile_books()', 'the book holds the bets again');

/** corrected again: back to the first result, each row naming its own correction */

select pg_temp.propose('corr_b', :m3, null, true) as c4 \gset
select pg_temp.approve('corr_a', :c4);
select tests.settle();
select is(tests.balance('corr_p1'), 4000::bigint, 'a second correction (back to abandoned) refunds p1 again');
select is(tests.balance('corr_p2'), 7000::bigint, 'and takes p2''s payout back, refunding the stake');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile after a second correction');

/** A batch cut off mid-way: settled again whole, each bet once */

select tests.create_user('corr_p3', 5000);
select tests.create_user('corr_p4', 5000);
select pg_temp.match_with_bets() as m5 \gset
select tests.call_as('corr_p3');
select app.place_bet(:m5, 1, 1000);
select tests.call_as('corr_p4');
select app.place_bet(:m5, 2, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:m5, 1);
select tests.settle();
select pg_temp.propose('corr_a', :m5, 2) as c5 \gset
select pg_temp.approve('corr_b', :c5);
-- a worker settles one batch of one player and commits; the next dies in the middle of its batch
select app.claim_settlement_batch(:m5, 1);
select ok(app.settle_batch(:m5) = 1, 'a first batch is settled');
select app.claim_settlement_batch(:m5, 1);
create function pg_temp.die_in_batch(p_match bigint) returns void language plpgsql as $$
begin
  perform app.settle_batch(p_match);
  raise exception 'worker died';
end;
$$;
select throws_ok(format('select pg_temp.die_in_batch(%s)', :m5), 'worker died', 'a worker dies with its batch half done');
select is((select count(*) from app.settlement_batches where match_id = :m5 and settled_at is null), 1::bigint,
  'its batch is still to settle');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile in the middle of the run');
select tests.settle(null, 1);
select is((select count(*) from public.transactions t join public.bets b on t.reference_id = 'BET-' || b.id || '-C' || :c5
           where b.match_id = :m5 and t.type = 'settlement_reversal'), 2::bigint,
  'each of the two winners'' payouts reversed once');
select is((select count(*) from public.transactions t join public.bets b on t.reference_id = 'BET-' || b.id || '-C' || :c5
           where b.match_id = :m5 and t.type = 'bet_won'), 2::bigint, 'each new winner paid once');
select results_eq(format($$select settlement_settled, settlement_total from public.matches where id = %s$$, :m5),
  $$values (4::bigint, 4::bigint)$$, 'every bet settled again');
select is(tests.balance('corr_p3'), 4000::bigint, 'p3''s payout taken back once');
select is(tests.balance('corr_p4'), 7000::bigint, 'p4 paid once');
select is((select status from app.result_corrections where id = :c5), 'applied', 'the correction is applied');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile after the crash and the sweep');

/** A rejected proposal, and the proposer's withdrawal */

select pg_temp.propose('corr_a', :m5, 1) as c6 \gset
select tests.call_as('corr_b');
select is(app.decide_result_correction(:c6, false) ->> 'status', 'rejected', 'another admin rejects a proposal');
select tests.reset_role();
select is((select winning_team_id from public.matches where id = :m5), 2::bigint, 'a rejection changes nothing');
select pg_temp.propose('corr_a', :m5, 1) as c7 \gset
select tests.call_as('corr_a');
select is(app.decide_result_correction(:c7, false) ->> 'status', 'rejected', 'the proposer may withdraw theirs');
select tests.reset_role();

/** Below zero: only a reversal, and no bets or withdrawals until a deposit brings it back */

select tests.create_user('corr_low', 1000);
select tests.call_as('corr_low');
select id as low_account from app.add_bank_account('Corr Low', '99887766554433', 'HDFC0004321', 'HDFC Bank') \gset
select tests.reset_role();
select tests.create_match('live') as m6 \gset
select tests.call_as('corr_low');
select app.place_bet(:m6, 1, 1000);
select tests.call_as('tests_admin');
select app.declare_winner(:m6, 1);
select tests.settle();
select is(tests.balance('corr_low'), 3000::bigint, 'the player won 3000');
select tests.create_match('live') as m7 \gset
select tests.call_as('corr_low');
select app.place_bet(:m7, 1, 3000);
select tests.reset_role();
select is(tests.balance('corr_low'), 0::bigint, 'and staked all of it on another match');

select pg_temp.propose('corr_a', :m6, 2) as c8 \gset
select pg_temp.approve('corr_b', :c8);
select tests.settle();
select is(tests.balance('corr_low'), -3000::bigint, 'the reversal takes the wallet below zero');
select ok((select below_zero_since is not null from public.users where id = tests.uid('corr_low')), 'the player is marked below zero');
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile with a wallet below zero');

select tests.create_match('live') as m8 \gset
select tests.call_as('corr_low');
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :m8), 'BT409',
  'Your balance is below zero after a result correction. Recharge to continue.', 'a bet while below zero is a 409');
select throws_ok(format('select app.request_withdrawal(500, %s)', :low_account), 'BT409',
  'Your balance is below zero after a result correction. Recharge to continue.', 'a withdrawal while below zero is a 409');
select tests.reset_role();
select throws_ok(format($$select app.post_transfers(array[app.ledger_row(%s, 'admin_adjustment', -1, p_reference_id => 'T-LOW')])$$,
                        tests.uid('corr_low')),
  'BT409', 'Insufficient balance', 'no other posting lowers a wallet below zero');

select tests.call_as('corr_a');
select is((select count(*) from app.admin_users(null, null, null, 50, true) u where u.id = tests.uid('corr_low')), 1::bigint,
  'the admin''s users list filtered to below zero lists the player');
select is((select count(*) from app.admin_users(null, null, null, 50, true) u where u.below_zero_since is null), 0::bigint,
  'and nobody else');
select tests.reset_role();

select tests.deposit('corr_low', 2000);
select is(tests.balance('corr_low'), -1000::bigint, 'a deposit smaller than the shortfall leaves it below zero');
select tests.call_as('corr_low');
select throws_ok(format('select app.place_bet(%s, 1, 1000)', :m8), 'BT409',
  'Your balance is below zero after a result correction. Recharge to continue.', 'still no bets');
select tests.reset_role();
select tests.deposit('corr_low', 2000);
select is(tests.balance('corr_low'), 1000::bigint, 'a deposit brings it back above zero');
select ok((select below_zero_since is null from public.users where id = tests.uid('corr_low')), 'the mark is cleared');
select tests.call_as('corr_low');
select lives_ok(format('select app.place_bet(%s, 1, 1000)', :m8), 'and the player may bet again');
select tests.reset_role();
select is(tests.reconcile_count(), 0::bigint, 'the books reconcile at the end');

/** Privileges */

select ok(not has_function_privilege(r, 'app.reopen_settled_bets(bigint, app.settlement_batches)', 'execute'),
  'no API role may reopen bets: ' || r)
  from unnest(array['anon', 'authenticated', 'service_role']) r;
select ok(not has_function_privilege('authenticated', 'app.decide_result_correction(bigint, boolean)', 'execute'),
  'players cannot decide corrections');

select * from finish();
rollback;
