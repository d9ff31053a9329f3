-- Lists at scale: the dashboard's figures from app.user_activity equal a direct count, the
-- activity day only moves forward, the admin users search and counts, and who may call what.
begin;
set local search_path = tests, public;
select plan(19);

select tests.create_admin('lia');
select tests.create_user('recent', 1000);
select tests.create_user('edgein');
select tests.create_user('edgeout');
select tests.create_user('old');
select tests.create_user('Zebedee_x');
select tests.reset_role();

-- The window starts at now() - 7 days, inside its first (UTC) day: rows on that day before and after the
-- start, and a row older than the window, written as the ledger would have written them then.
create temporary table window_edge as
  select now() - interval '7 days' as since,
         ((now() - interval '7 days') at time zone 'UTC')::date::timestamp at time zone 'UTC' as first_midnight;
insert into public.transactions (user_id, amount, type, status, reference_id, payment_method, created_at)
select tests.uid(u.name), 500, 'deposit', 'pending', tests.new_ref(), 'upi', u.at
from window_edge w,
     lateral (values ('edgein', w.since + (w.first_midnight + interval '1 day' - w.since) / 2),
                     ('edgeout', w.first_midnight),
                     ('old', now() - interval '30 days')) u(name, at);
update public.users set status = 'banned' where username = 'old';

/** app.user_activity */

select is((select active_on from app.user_activity where user_id = tests.uid('edgein')),
          ((select since from window_edge) at time zone 'UTC')::date, 'a user''s activity day is the day of their latest ledger row');
insert into public.transactions (user_id, amount, type, status, reference_id, payment_method, created_at)
values (tests.uid('recent'), 500, 'deposit', 'pending', tests.new_ref(), 'upi', now() - interval '20 days');
select is((select active_on from app.user_activity where user_id = tests.uid('recent')), (now() at time zone 'UTC')::date,
          'an older row does not move the day back');
select is((select count(*)::int from app.user_activity a
           where a.active_on <> (select max((t.created_at at time zone 'UTC')::date) from public.transactions t where t.user_id = a.user_id)),
          0, 'every user''s activity day is the day of their latest ledger row');

/** app.dashboard_stats equals a direct count */

select tests.call_as('lia');
create temporary table stats as select app.dashboard_stats() as s;
select tests.reset_role();
select is((select (s->>'activeUsers')::int from stats),
          (select count(*)::int from (
             select b.user_id from public.bets b where b.created_at >= now() - interval '7 days'
             union
             select t.user_id from public.transactions t where t.created_at >= now() - interval '7 days') a),
          'activeUsers is the direct count of users with a bet or a ledger row in the last 7 days');
select is((select (s->>'activeUsers')::int from stats)
          - (select count(distinct t.user_id)::int from public.transactions t
             where t.created_at >= now() - interval '7 days'
               and t.user_id not in (select tests.uid(n) from unnest(array['recent', 'edgein', 'edgeout', 'old']) n)),
          2, 'of this test''s users: the row after the window''s start counts, the one before it on the same day does not');
select is((select (s->>'totalUsers')::int from stats), (select count(*)::int from public.users), 'totalUsers');
select is((select (s->>'totalBets')::int from stats),
          (select count(*)::int from public.bets where created_at >= now() - interval '7 days'), 'totalBets (7 days)');
select is((select (s->>'totalTransactionVolume')::bigint from stats),
          (select coalesce(sum(abs(amount)), 0)::bigint from public.transactions
           where created_at >= now() - interval '7 days' and status = 'completed' and type in ('deposit', 'withdrawal')),
          'totalTransactionVolume (7 days)');
select is((select (s->>'pendingDeposits')::int from stats),
          (select count(*)::int from public.transactions where type = 'deposit' and status = 'pending'), 'pendingDeposits');
select is((select (s->>'pendingWithdrawals')::int from stats),
          (select count(*)::int from public.transactions where type = 'withdrawal' and status = 'pending'), 'pendingWithdrawals');

/** app.admin_users and app.admin_user_counts */

select tests.call_as('lia');
select results_eq($$select username from app.admin_users('EDEE_X@EXAMPLE', null, null, 10)$$,
  $$values ('Zebedee_x'::varchar)$$, 'a part of the email finds the user, whatever the case');
select is_empty($$select 1 from app.admin_users('%', null, null, 10)$$, 'LIKE wildcards are plain characters');
select results_eq(format($$select id from app.admin_users(%L, null, null, 10)$$, tests.uid('old')),
  format($$values (%s::bigint)$$, tests.uid('old')), 'an id finds that user');
select results_eq($$select username from app.admin_users('edge', null, null, 10)$$,
  $$values ('edgeout'::varchar), ('edgein'::varchar)$$, 'newest first');
select results_eq(format($$select username from app.admin_users('edge', null, %s, 10)$$, tests.uid('edgeout')),
  $$values ('edgein'::varchar)$$, 'from the cursor on');
select results_eq($$select username from app.admin_users(null, 'banned', null, 10)$$,
  $$select username from public.users where status = 'banned' order by id desc$$, 'a status tab');
select is(app.admin_user_counts(),
  (select jsonb_build_object('all', count(*), 'active', count(*) filter (where status = 'active'),
          'suspended', count(*) filter (where status = 'suspended'), 'banned', count(*) filter (where status = 'banned'))
   from public.users), 'the tab counts are the direct counts');
select tests.call_as('recent');
select throws_ok($$select * from app.admin_users(null, null, null, 10)$$, 'BT403', 'Admin access required',
  'a player cannot list users');
select tests.reset_role();

/** Privileges */

select ok(not has_function_privilege('authenticated', 'app.admin_users(text, text, bigint, integer, boolean)', 'execute')
          and not has_function_privilege('service_role', 'app.note_user_activity()', 'execute')
          and not has_function_privilege('anon', 'app.admin_user_counts()', 'execute'),
          'the list functions are for service_role, the trigger function for nobody');

select * from finish();
rollback;
