-- Foundation: the ten fixed teams of the league and RLS on every table of `public`.
begin;
set local search_path = tests, public;
select plan(5);

select results_eq(
  'select id, name::text, short_name::text from public.teams order by id',
  $$values
    (1::bigint, 'Mumbai Indians', 'MI'), (2, 'Chennai Super Kings', 'CSK'),
    (3, 'Royal Challengers Bangalore', 'RCB'), (4, 'Kolkata Knight Riders', 'KKR'),
    (5, 'Delhi Capitals', 'DC'), (6, 'Punjab Kings', 'PBKS'), (7, 'Rajasthan Royals', 'RR'),
    (8, 'Sunrisers Hyderabad', 'SRH'), (9, 'Gujarat Titans', 'GT'), (10, 'Lucknow Super Giants', 'LSG')$$,
  'the ten fixed teams are reference data with their fixed ids'
);

select is_empty(
  $$select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity$$,
  'RLS is enabled on every table in public'
);

select ok(
  (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relkind = 'r') >= 1,
  'public has tables to check'
);

set local role anon;
select is((select count(*)::int from public.teams), 10, 'anon reads the teams');
reset role;

select has_schema('app', 'the private schema app exists');

select * from finish();
rollback;
