-- Set-based settlement at scale: a match with 100,000 bets from 1,000 players is declared in one call.
-- The bets are generated in bulk (registering 1,000 players through app.register_user, funding them and
-- placing the bets with direct, ledger-consistent inserts, checked by app.reconcile before settlement),
-- because 100,000 separate place_bet calls would only measure the generator. Settlement itself goes
-- through app.declare_winner; the assertions are on results, not on time.
begin;
set local search_path = tests, public;
select plan(9);

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
insert into public.bets (user_id, match_id, team_id, amount, odds, potential_win, status)
select u.id, :m, case when u.id % 2 = 0 then 9 else 10 end, 1000, 3.00, 3000, 'placed'
from public.users u cross join generate_series(1, 100)
where u.username like 'bulk%';
insert into public.transactions (user_id, amount, type, status, reference_id)
select b.user_id, -b.amount, 'bet_placed', 'completed', 'BET-' || b.id from public.bets b where b.match_id = :m;

select is((select count(*)::int from public.bets where match_id = :m and status = 'placed'), 100000, '100,000 placed bets');
select is(tests.reconcile_count(), 0::bigint, 'the generated ledger reconciles before settlement');

select tests.call_as('tests_admin');
select is((select status::text from app.declare_winner(:m, 9)), 'completed', 'declare_winner settles the match');
select tests.reset_role();

select results_eq(format($$select status::text, count(*)::int from public.bets where match_id = %s group by status order by 1$$, :m),
  $$values ('lost', 50000), ('won', 50000)$$, 'half the bets won, half lost');
select results_eq(format($$select type::text, count(*)::int, sum(amount)::bigint from public.transactions
                           where type in ('bet_won', 'bet_lost') and user_id in (select user_id from public.bets where match_id = %s)
                           group by type order by 1$$, :m),
  $$values ('bet_lost', 50000, 0::bigint), ('bet_won', 50000, 150000000::bigint)$$,
  'one ledger row per bet: 50,000 bet_won of 3000 and 50,000 bet_lost of 0');
select results_eq($$select sum(wallet_balance)::bigint, min(wallet_balance), max(wallet_balance) from public.users
                    where username like 'bulk%' and id % 2 = 0$$,
  $$values (150000000::bigint, 300000::bigint, 300000::bigint)$$, 'each winner holds 100 x 3000');
select is((select max(wallet_balance) from public.users where username like 'bulk%' and id % 2 = 1), 0::bigint,
  'losers hold nothing');
select is(tests.reconcile_count(), 0::bigint, 'ledger reconciles after settlement');
select unalike((select prosrc from pg_proc where oid = 'app.declare_winner(bigint, bigint, text)'::regprocedure),
  '%loop%', 'declare_winner has no per-bet loop: settlement is set-based');

select * from finish();
rollback;
