-- The house's books for admins: GET /api/admin/books (app.books: per match line, per IST day and totals, from
-- the lines and day totals settlement and the posting function keep) and GET /api/admin/books.csv
-- (app.books_csv). The day totals get an index by day for ranges of days.

-- the books of a range of days
create index account_days_day_idx on app.account_days (day);

-- GET /api/admin/books: the house's books from p_from to p_to (IST days, both included, at most 366), built
-- from what settlement and the posting function keep as they go (never a scan of the ledger), rupees as
-- integers:
--   matches: each line of the books booked in the range (a match's settlement; each correction is a line of
--     its own), newest first: match_id, team1, team2, settled_at (when its outcome was fixed), bets, stakes,
--     paid, refunded, house_result (stakes - paid - refunded);
--   days: every day of the range, oldest first: deposits credited, withdrawals paid, admin_credits (net of
--     debits), referral_bonuses, house_result;
--   totals: the sums of both.
-- The lines and the days are booked at the same moments, so the matches' house result and the days' add up
-- to the same (app.reconcile checks it). For an active admin.
create or replace function app.books(p_from date, p_to date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app.require_admin();
  if p_from is null or p_to is null or p_from > p_to then
    raise exception using errcode = 'BT400', message = 'The start date must be on or before the end date';
  end if;
  if p_to - p_from >= 366 then
    raise exception using errcode = 'BT400', message = 'The books cover at most 366 days';
  end if;
  return (
    with lines as (
      select l.match_id, t1.name as team1, t2.name as team2, l.booked_at as settled_at, l.bets, l.stakes, l.paid,
             l.refunded, l.stakes - l.paid - l.refunded as house_result
      from app.match_lines l
      join public.matches m on m.id = l.match_id
      join public.teams t1 on t1.id = m.team1_id
      join public.teams t2 on t2.id = m.team2_id
      where l.booked_at >= p_from::timestamp at time zone 'Asia/Kolkata'
        and l.booked_at < (p_to + 1)::timestamp at time zone 'Asia/Kolkata'
    ),
    flows as (
      select d.day,
             coalesce(sum(d.amount_out) filter (where d.account = 'gateway_clearing'), 0) as deposits,
             coalesce(sum(d.amount_in) filter (where d.account = 'gateway_clearing'), 0) as withdrawals,
             coalesce(sum(d.amount_out - d.amount_in) filter (where d.account = 'adjustments'), 0) as admin_credits,
             coalesce(sum(d.amount_out - d.amount_in) filter (where d.account = 'bonuses'), 0) as referral_bonuses,
             coalesce(sum(d.amount_in - d.amount_out) filter (where d.account = 'house_result'), 0) as house_result
      from app.account_days d
      where d.day between p_from and p_to
      group by d.day
    ),
    days as (
      select g.day::date as day, coalesce(f.deposits, 0) as deposits, coalesce(f.withdrawals, 0) as withdrawals,
             coalesce(f.admin_credits, 0) as admin_credits, coalesce(f.referral_bonuses, 0) as referral_bonuses,
             coalesce(f.house_result, 0) as house_result
      from generate_series(p_from, p_to, interval '1 day') g (day)
      left join flows f on f.day = g.day::date
    )
    select jsonb_build_object(
      'matches', coalesce((select jsonb_agg(to_jsonb(l) order by l.settled_at desc, l.match_id desc) from lines l), '[]'),
      'days', (select jsonb_agg(to_jsonb(d) order by d.day) from days d),
      'totals', (select jsonb_build_object(
                          'bets', coalesce(sum(l.bets), 0), 'stakes', coalesce(sum(l.stakes), 0),
                          'paid', coalesce(sum(l.paid), 0), 'refunded', coalesce(sum(l.refunded), 0))
                 from lines l)
                || (select jsonb_build_object(
                             'deposits', sum(d.deposits), 'withdrawals', sum(d.withdrawals),
                             'admin_credits', sum(d.admin_credits), 'referral_bonuses', sum(d.referral_bonuses),
                             'house_result', sum(d.house_result))
                    from days d))
  );
end;
$$;
comment on function app.books(date, date) is
  'The house''s books of a range of IST days: per match line, per day and totals. Caller: API as an admin.';


-- GET /api/admin/books.csv: the same books as CSV lines (the header first), one table for all three parts:
-- 'match' lines (newest first), then 'day' lines (oldest first), then the 'total' line; each line fills the
-- columns of its part. Texts go through app.csv_field (quoted where needed, guarded against formulas).
create or replace function app.books_csv(p_from date, p_to date)
returns setof text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  with books as (select app.books(p_from, p_to) as b)
  select l.line
  from (
    select 0 as part, 0::bigint as n,
           'line,match_id,team1,team2,settled_at (IST),day,bets,stakes,paid,refunded,deposits,withdrawals,'
           || 'admin_credits,referral_bonuses,house_result' as line
    union all
    select 1, x.n,
           concat_ws(',', 'match', m ->> 'match_id', app.csv_field(m ->> 'team1'), app.csv_field(m ->> 'team2'),
                     to_char((m ->> 'settled_at')::timestamptz at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS'),
                     '', m ->> 'bets', m ->> 'stakes', m ->> 'paid', m ->> 'refunded', '', '', '', '',
                     m ->> 'house_result')
    from books, jsonb_array_elements(books.b -> 'matches') with ordinality as x (m, n)
    union all
    select 2, x.n,
           concat_ws(',', 'day', '', '', '', '', d ->> 'day', '', '', '', '', d ->> 'deposits', d ->> 'withdrawals',
                     d ->> 'admin_credits', d ->> 'referral_bonuses', d ->> 'house_result')
    from books, jsonb_array_elements(books.b -> 'days') with ordinality as x (d, n)
    union all
    select 3, 0,
           concat_ws(',', 'total', '', '', '', '', '', t ->> 'bets', t ->> 'stakes', t ->> 'paid', t ->> 'refunded',
                     t ->> 'deposits', t ->> 'withdrawals', t ->> 'admin_credits', t ->> 'referral_bonuses',
                     t ->> 'house_result')
    from books, jsonb_extract_path(books.b, 'totals') as t
  ) l
  order by l.part, l.n;
end;
$$;
comment on function app.books_csv(date, date) is
  'The house''s books of a range of IST days as CSV lines, header first. Caller: API as an admin.';


revoke execute on function app.books(date, date), app.books_csv(date, date)
  from public, anon, authenticated, service_role;
grant execute on function app.books(date, date), app.books_csv(date, date) to service_role;
