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
-- built once. It aggregates with json_agg, which appends each bet's text; jsonb_agg would take every bet
-- apart again to build one big jsonb (a sixth of the database's time on this route, measured).
-- app.bet_json(bet) becomes that function's answer for a single bet, so the shape of a bet stays in one
-- place (same fields as before: the row, `match` as app.match_json, `team`).

/** Functions: answer shapes */

create function app.bets_json(p_bets public.bets[])
returns json
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    with page as (select b.match_id, b.team_id, b.ordinality from unnest(p_bets) with ordinality b),
    matches as (
      select m.id, app.match_json(m) as json
      from public.matches m
      where m.id in (select b.match_id from page b)
    ),
    teams as (
      select t.id, to_jsonb(t) as json
      from public.teams t
      where t.id in (select b.team_id from page b)
    )
    select coalesce(json_agg(to_jsonb(p_bets[b.ordinality::int]) || jsonb_build_object('match', m.json, 'team', t.json)
                             order by b.ordinality), '[]')
    from page b
    left join matches m on m.id = b.match_id
    left join teams t on t.id = b.team_id
  );
end;
$$;
comment on function app.bets_json(public.bets[]) is
  'The API''s answer for a list of bets, in the given order, each with its match and team (each built once). Callable by authenticated, service_role.';

create or replace function app.bet_json(p_bet public.bets)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (app.bets_json(array[p_bet]) -> 0)::jsonb;
end;
$$;

/** Function privileges */

revoke execute on function app.bets_json(public.bets[]) from public, anon, authenticated, service_role;
grant execute on function app.bets_json(public.bets[]) to authenticated, service_role;
