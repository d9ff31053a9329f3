-- Settlement at scale, batch by batch: a match with 100,000 bets from 1,000 players is declared (the outcome
-- is fixed at once) and its run is settled in batches of 2,000 bets, each checked as it lands: the ledger
-- reconciles between batches, no player's bets are split between batches, each bet is settled once
-- (settling a batch again, or a settled run, settles nothing), and the last batch finishes the run after
-- checking its totals. The bets are generated in bulk (registering 1,000 players through
-- app.register_user, funding them and placing the bets with direct, ledger-consistent inserts, checked by
-- app.reconcile before settlement), because 100,000 separate place_bet calls would only measure the
-- generator. The assertions are on results, not on time.
begin;
set local search_path = tests, public;
select plan(17);

select tests.create_match('live', 9, 10) as m \gset

select tests.as_webhook();
select count(*) from (
  select app.register_user('bulk' || g, 'h', 'Bulk ' || g, 'bulk' || g || '@example.test', null, null)
  from generate_series(1, 1000) g
) r;
select tests.reset_role();

-- each player: one completed deposit of 100000, then 100 bets of 1000 (even players on team 9, odd on 10)
insert into public.transactions (user_id, amount, type, status, reference_id, payment_method)
select u.id, 100000, 'deposit', 'completed', 'REF-' || u.id || '-BULK', 'upi'
from public.users u where u.username like 'bulk%';
update public.users set wallet_balance = 100000 - 100 * 1000 where username like 'bulk%';
-- the deposits' side in the house's books: out of the gateway today
insert into app.account_days (account, day, stripe, amount_in, amount_out)
values ('gateway_clearing', (now() at time zone 'Asia/Kolkata')::date, 0, 0, 1000 * 100000)
on conflict (account, day, stripe) do update set amount_out = app.account_days.amount_out + excluded.amount_out;
insert into public.bets (user_id, match_id, team_id, amount, odds, potential_win, status)
select u.id, :m, case when u.id % 2 = 0 then 9 else 10 end, 1000, 3.00, 3000, 'placed'
from public.users u cross join generate_series(1, 100)
where u.username like 'bulk%';
insert into public.transactions (user_id, amount, type, status, reference_id)
select b.user_id, -b.amount, 'bet_placed', 'completed', 'BET-' || b.id from public.bets b where b.match_id = :m;

select is((select count(*)::int from public.bets where match_id = :m and status = 'placed'), 100000, '100,000 placed bets');
select is(tests.reconcile_count(), 0::bigint, 'the generated ledger reconciles before settlement');

select tests.call_as('tests_admin');
select is((select app.match_json(m) -> 'settlement' from app.declare_winner(:m, 9) m),
  '{"state": "settling", "settled": 0, "total": 100000}'::jsonb, 'the declaration fixes the outcome and records the run''s total');
select tests.reset_role();
select is((select expected_credit from app.settlement_runs where match_id = :m), 150000000::bigint,
  'with what the run will pay: 50,000 winning bets of 3,000');
select is((select count(*)::int from public.bets where match_id = :m and status = 'placed'), 100000,
  'and settles no bet itself');

-- settle it batch by batch, checking the ledger after every fifth batch (a full reconciliation reads the
-- whole ledger)
create temporary table batch_checks (bets int, unreconciled bigint);
do $$
declare
  v_match bigint := (select max(id) from public.matches where team1_id = 9 and team2_id = 10);
  v_claimed app.settlement_batches;
  v_settled int;
begin
  loop
    v_claimed := app.claim_settlement_batch(v_match, 2000);
    v_settled := app.settle_batch(v_match);
    exit when v_claimed.match_id is null and v_settled is null;
    insert into batch_checks
    values (v_settled, case when (select count(*) from batch_checks) % 5 = 4 then (select count(*) from app.reconcile()) end);
  end loop;
end;
$$;
select is((select count(*)::int from batch_checks), 50, 'fifty batches of 2,000 bets (20 players each)');
select results_eq('select count(unreconciled)::int, count(*) filter (where unreconciled <> 0)::int from batch_checks',
  $$values (10, 0)$$, 'the ledger reconciles between batches, in the middle of the run');
select is_empty(format($$select user_id from public.bets b join app.settlement_batches x
                           on x.match_id = b.match_id and b.user_id between x.first_user_id and x.last_user_id
                           where b.match_id = %s group by b.user_id having count(distinct x.first_user_id) > 1$$, :m),
  'no player''s bets are split between batches');

select results_eq(format($$select status::text, count(*)::int from public.bets where match_id = %s group by status order by 1$$, :m),
  $$values ('lost', 50000), ('won', 50000)$$, 'half the bets won, half lost');
select results_eq(format($$select type::text, count(*)::int, sum(amount)::bigint from public.transactions
                           where type in ('bet_won', 'bet_lost') and user_id in (select user_id from public.bets where match_id = %s)
                           group by type order by 1$$, :m),
  $$values ('bet_won', 50000, 150000000::bigint)$$,
  'one ledger row per winning bet (50,000 bet_won of 3,000); lost bets move no money and write none');
select results_eq($$select sum(wallet_balance)::bigint, min(wallet_balance), max(wallet_balance) from public.users
                    where username like 'bulk%' and id % 2 = 0$$,
  $$values (150000000::bigint, 300000::bigint, 300000::bigint)$$, 'each winner holds 100 x 3000');
select is((select max(wallet_balance) from public.users where username like 'bulk%' and id % 2 = 1), 0::bigint,
  'losers hold nothing');
select results_eq(format($$select (app.match_json(m) -> 'settlement'), r.finished_at is not null
                           from public.matches m join app.settlement_runs r on r.match_id = m.id where m.id = %s$$, :m),
  $$values ('{"state": "settled", "settled": 100000, "total": 100000}'::jsonb, true)$$,
  'the last batch finished the run: the match says settled');

select is(app.settle_batch(:m), null, 'a settled run has no batch left: settling again settles nothing');
select ok((select app.claim_settlement_batch(:m, 2000)) is null, 'and nothing is left to claim');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles after settlement');

-- the one default of a batch's size: what pg_cron's sweep, and the server unless told otherwise, settle with
select is(pg_get_function_arguments('app.settle_step(int)'::regprocedure), 'p_batch_size integer DEFAULT 1000',
  'a settlement step claims 1,000 bets a batch unless given another size');

select * from finish();
rollback;
