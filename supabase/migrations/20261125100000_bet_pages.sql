-- A page of bets built in one pass.
--
-- `GET /api/bets` (and the admin's lists of a user's or a match's bets) answered each bet of a page with
-- app.bet_json, which built the bet's match (app.match_json: the row and its two teams) and its team
-- again for every bet. A page of 50 bets meant 50 matches built, about 200 subqueries and 100 calls of
-- functions that pin search_path: 3 ms of database time per page, the database's CPU being nearly all of
-- what the request cost (perf: 68% of the machine under load on this route, the API server 13%). A
-- player's page holds a handful of matches, and an admin's page of one match's bets holds one.
--
-- app.bets_json(bets[]) answers the JSON array of the bets given, in their order, each match and team
-- built once (materialized, so that no plan builds them per bet again). It aggregates with json_agg,
-- which appends each bet's text; jsonb_agg would take every bet apart again to build one big jsonb (a
-- sixth of the database's time on this route, measured). app.bet_json stays as it was for the answer of a
-- single bet (placing a bet): through the array it costs four times as much. The two build the same
-- shape, and supabase/tests/12-request-path.test.sql checks that they agree bet for bet.

/** Functions: answer shapes */

create function app.bets_json(p_bets public.bets[])
returns json
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    with page as materialized (select i, p_bets[i] as bet from generate_subscripts(p_bets, 1) i),
    matches as materialized (
      select m.id, app.match_json(m) as json
      from public.matches m
      where m.id in (select (b.bet).match_id from page b)
    ),
    teams as materialized (
      select t.id, to_jsonb(t) as json
      from public.teams t
      where t.id in (select (b.bet).team_id from page b)
    )
    select coalesce(json_agg(to_jsonb(b.bet) || jsonb_build_object('match', m.json, 'team', t.json) order by b.i), '[]')
    from page b
    left join matches m on m.id = (b.bet).match_id
    left join teams t on t.id = (b.bet).team_id
  );
end;
$$;
comment on function app.bets_json(public.bets[]) is
  'The API''s answer for a list of bets, in the given order, each with its match and team (each built once). Callable by authenticated, service_role.';

/** Function privileges */

revoke execute on function app.bets_json(public.bets[]) from public, anon, authenticated, service_role;
grant execute on function app.bets_json(public.bets[]) to authenticated, service_role;
