-- Matches and bets: the match lifecycle (upcoming → live → completed), bet placement, fixing the outcome
-- (declare the winner) or voiding (abandon), and the answers the API builds for matches and bets. The bets
-- of a completed match are settled afterwards, batch by batch (the settlement area).
--
-- Money rules: a bet debits the stake and writes a completed bet_placed ledger row (-amount, reference
-- BET-{bet id}) in the same transaction; settlement writes bet_won (+potential_win) rows for winning bets
-- (a lost bet moves no money and writes none); abandoning writes bet_refund (+amount) rows. The unique
-- (type, reference_id) index on the ledger makes a second payout of one bet impossible.
--
-- Lock order (shared with the wallet): the match row first, then user rows by ascending id. place_bet holds
-- the match row `for share` while it debits; declare_winner, abandon_match, live updates, price changes and
-- betting suspension take it `for update`: a bet either commits before the change (and is settled, or kept at
-- the old price) or sees it.
--
-- Prices: each side of a match has its own decimal odds (team1_odds, team2_odds), set by admins; a new match
-- takes the setting default_odds (3.00 unless the operator changes it) for both. A bet is taken at its side's price
-- of that moment, read from the match row it holds, and keeps it: settlement pays each bet its own
-- potential_win.
--
-- The rules of a bet beyond its amount and team live in their own areas, called from app.place_bet under
-- the same locks: player protection (no bet during a time-out or self-exclusion) and house risk (betting
-- suspended or closed, stake and liability limits, the match's book). Live events announce every match
-- change (live events area).

/** Functions: the game */

-- Overs in one innings of a match type: 20 for t20 and ipl, 50 for odi, none (null) for a test.
create function app.innings_overs(p_match_type text)
returns int
language sql
immutable
set search_path = ''
as $$
  select case p_match_type when 't20' then 20 when 'ipl' then 20 when 'odi' then 50 end
$$;
comment on function app.innings_overs(text) is 'Internal: overs in one innings of a match type (null: no limit, a test).';

-- A score as admins type it, 'runs/wickets' ('145/3', wickets 0-10), read as its two numbers; nulls when
-- the text is empty or cannot be read.
create function app.score_parts(p_score text, out runs int, out wickets int)
language sql
immutable
set search_path = ''
as $$
  select m[1]::int, m[2]::int
  from (select regexp_match(btrim(p_score), '^([0-9]{1,4})/([0-9]|10)$') as m) s
$$;
comment on function app.score_parts(text) is 'Internal: ''145/3'' → (145, 3); nulls for a score that cannot be read.';

/** Tables */

-- An innings lasts the overs of the match type (20 for t20 and ipl, 50 for an odi, a test none; 999 as the
-- column holds them): current_over is overs.balls with balls 0-5 (12.6 is not an over).
-- Every change grows version by one (trigger matches_version), so clients keep the newest state they have
-- seen of each match whatever order events arrive in. betting_suspended (set by admins) and betting_closed
-- (latched by trigger matches_betting_state when the close rule of the house-risk settings applies) give the
-- generated column betting; a change of either is a match change like any other, announced live. The same
-- trigger keeps betting_pauses_at from live_updated_at (set by every start and live update) and the stale
-- live-score setting.
create table public.matches (
  id bigint generated always as identity primary key,
  team1_id bigint not null references public.teams (id),
  team2_id bigint not null references public.teams (id),
  start_time timestamptz not null,
  status varchar(50) not null default 'upcoming' check (status in ('upcoming', 'live', 'completed')),
  match_type varchar(50) not null default 't20' check (match_type in ('t20', 'odi', 'test', 'ipl')),
  venue varchar(255),
  team1_score varchar(50),
  team2_score varchar(50),
  current_innings int check (current_innings in (1, 2)),
  current_over numeric(4, 1),
  match_result varchar(255),
  winning_team_id bigint references public.teams (id),
  external_match_id varchar(255),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version bigint not null default 1 check (version >= 1),
  betting_suspended boolean not null default false,
  betting_closed boolean not null default false,
  betting varchar(20) not null generated always as (
    case when status = 'completed' or betting_closed then 'closed' when betting_suspended then 'suspended' else 'open' end
  ) stored,
  live_updated_at timestamptz,
  betting_pauses_at timestamptz,
  settlement_total bigint,
  settlement_settled bigint,
  team1_odds numeric(5, 2) not null default (app.current_risk_settings()).default_odds,
  team2_odds numeric(5, 2) not null default (app.current_risk_settings()).default_odds,
  batting_first_team_id bigint references public.teams (id),
  correction_reason varchar(200),
  constraint matches_teams_differ check (team1_id <> team2_id),
  constraint matches_over_within_innings check (
    current_over >= 0 and current_over * 10 % 10 <= 5 and current_over <= coalesce(app.innings_overs(match_type), 999)
  ),
  constraint matches_odds_range check (team1_odds between 1.01 and 100 and team2_odds between 1.01 and 100),
  constraint matches_batting_first_plays check (batting_first_team_id in (team1_id, team2_id)),
  constraint matches_winner_plays check (winning_team_id is null or winning_team_id in (team1_id, team2_id)),
  constraint matches_result_when_completed check ((status = 'completed') = (match_result is not null)),
  constraint matches_winner_when_completed check (status = 'completed' or winning_team_id is null),
  constraint matches_settlement_when_completed check (
    (status = 'completed') = (settlement_total is not null)
    and (settlement_total is null) = (settlement_settled is null)
    and settlement_settled between 0 and settlement_total
  )
);
comment on table public.matches is 'Cricket matches. Readable by everyone; changed by admin functions only.';
comment on column public.matches.match_result is '''{team name} won the match'', or ''Match abandoned''.';
comment on column public.matches.version is 'Starts at 1 and grows by one with every change of the row.';
comment on column public.matches.betting_suspended is 'Set by an admin: no bets until resumed.';
comment on column public.matches.betting_closed is
  'Latched by trigger matches_betting_state once the close rule closes betting (live and pre-match-only, or past the close over of the second innings); cleared only by an admin''s Resume.';
comment on column public.matches.betting is 'open, suspended or closed (closed wins; completed matches are closed).';
comment on column public.matches.settlement_total is 'Bets the settlement of a completed match settles (null until completed).';
comment on column public.matches.settlement_settled is 'Bets of the settlement settled so far (null until completed).';
comment on column public.matches.live_updated_at is 'When the match started or last had a live update (scores, innings, over).';
comment on column public.matches.team1_odds is
  'Decimal odds of a bet on team 1 (a bet of ₹1,000 at 1.85 pays ₹1,850); set by admins, the setting default_odds when created.';
comment on column public.matches.team2_odds is 'Decimal odds of a bet on team 2.';
comment on column public.matches.batting_first_team_id is
  'The team that batted first: given with a live update, or the only team with a score during the first innings.';
comment on column public.matches.correction_reason is
  'Why the result was corrected (the last approved correction''s reason), shown as ''Result corrected: {reason}''; null: never corrected.';
comment on column public.matches.betting_pauses_at is
  'When bets pause unless a live update comes first (live_feed_stale_seconds after the last live update, the start, or the start time of an upcoming match); null: never. Kept by trigger matches_betting_state.';
-- foreign keys
create index matches_team1_id_idx on public.matches (team1_id);
create index matches_team2_id_idx on public.matches (team2_id);
create index matches_winning_team_id_idx on public.matches (winning_team_id);
create index matches_batting_first_team_id_idx on public.matches (batting_first_team_id);
-- GET /api/matches?status=… ordered by start time
create index matches_status_start_time_idx on public.matches (status, start_time);
-- an external feed's id identifies one match
create unique index matches_external_match_id_key on public.matches (external_match_id)
  where external_match_id is not null;

-- Odds and potential win are the server's: the price of the side backed when the bet was taken, and
-- round(amount × odds). A bet changes once (placed → won, lost or cancelled) and its status stays out of
-- every index, so settlement's updates are HOT when the page has room: fillfactor 50 keeps it.
create table public.bets (
  id bigint generated always as identity primary key,
  user_id bigint not null references public.users (id) on delete restrict,
  match_id bigint not null references public.matches (id) on delete restrict,
  team_id bigint not null references public.teams (id),
  amount bigint not null check (amount >= 1000),
  odds numeric(5, 2) not null check (odds between 1.01 and 100),
  potential_win bigint not null,
  status varchar(50) not null default 'placed' check (status in ('placed', 'won', 'lost', 'cancelled')),
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  constraint bets_potential_win check (potential_win = round(amount * odds)),
  constraint bets_settled_at check ((status = 'placed') = (settled_at is null))
) with (fillfactor = 50);
comment on table public.bets is 'Players'' bets: placed, then won/lost at settlement or cancelled on abandon.';
-- foreign key, RLS filter, "my bets, newest first" (ids are handed out in insertion order)
create index bets_user_id_idx on public.bets (user_id, id);
-- foreign key, "bets of this match", and settlement: a match's bets in the order of their players, which
-- claims walk and batches read by range (all bets of a match are placed until settled: no status needed)
create index bets_match_id_user_id_idx on public.bets (match_id, user_id);
-- foreign key
create index bets_team_id_idx on public.bets (team_id);
-- dashboard window (last 7 days): a range over insertion order, which BRIN serves cheaply
create index bets_created_at_idx on public.bets using brin (created_at);

/** Privileges */

revoke all on public.matches, public.bets from anon, authenticated, service_role;
grant select on public.matches to anon, authenticated, service_role;
grant select on public.bets to authenticated, service_role;

/** Policies */

alter table public.matches enable row level security;
create policy "Matches are readable by visitors"
  on public.matches for select to anon using (true);
create policy "Matches are readable by signed-in users"
  on public.matches for select to authenticated using (true);

alter table public.bets enable row level security;
create policy "Users can read their own bets; admins read all"
  on public.bets for select to authenticated
  using (user_id = (select app.current_user_id()) or (select app.is_admin()));

/** Functions: answer shapes */

-- A match as the API answers it and its live events carry it: the row without the internal betting flags,
-- the live score's clock and the settlement counters (their outcomes are `betting`, `betting_pauses_at` and
-- `settlement`: null until the match is completed, then {"state": "settling" | "settled", "settled": n,
-- "total": N}), with its teams and additionalDetails.status (the result once completed).
create function app.match_json(p_match public.matches)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select (to_jsonb(p_match) - '{betting_suspended,betting_closed,live_updated_at,settlement_total,settlement_settled}'::text[])
      || jsonb_build_object(
        'team1', (select to_jsonb(t) from public.teams t where t.id = p_match.team1_id),
        'team2', (select to_jsonb(t) from public.teams t where t.id = p_match.team2_id),
        'additionalDetails', jsonb_build_object('status', p_match.match_result),
        'settlement', case when p_match.settlement_total is not null then jsonb_build_object(
          'state', case when p_match.settlement_settled < p_match.settlement_total then 'settling' else 'settled' end,
          'settled', p_match.settlement_settled,
          'total', p_match.settlement_total) end)
  );
end;
$$;
comment on function app.match_json(public.matches) is
  'The API''s match answer (with team1, team2, additionalDetails). Callable by anon, authenticated, service_role.';

-- A bet as the API answers it: the row with its match (as app.match_json) and the team backed. For the
-- answer of a single bet (placing a bet); lists use app.bets_json, which builds the same shape
-- (supabase/tests/00e-request-path.test.sql checks that the two agree bet for bet).
create function app.bet_json(p_bet public.bets)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select to_jsonb(p_bet) || jsonb_build_object(
      'match', (select app.match_json(m) from public.matches m where m.id = p_bet.match_id),
      'team', (select to_jsonb(t) from public.teams t where t.id = p_bet.team_id))
  );
end;
$$;
comment on function app.bet_json(public.bets) is
  'The API''s bet answer (with match and team). Callable by authenticated, service_role.';

-- The API's answer for a list of bets (GET /api/bets, the admin's lists of a user's or a match's bets): the
-- JSON array of the bets given, in their order, each match and team built once however many bets share it
-- (materialized, so that no plan builds them per bet again). It aggregates with json_agg, which appends
-- each bet's text; jsonb_agg would take every bet apart again to build one big jsonb.
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

/** Functions: bets */

-- Places a bet for the caller. The match (shared lock, so bets run in parallel but not beside a settlement,
-- a price change or a live update) must take bets: not suspended, not closed, not paused for a stale live
-- score; the team one of its two; amount ≥ 1000 and within the available balance. The odds are the price of
-- the team backed, read from the locked match row, and the potential win round(amount × odds): a client
-- value that disagrees with either (the price the player saw has changed) is a 409 'Odds have changed'. The
-- player (locked `for update`, so one player's bets run one after the other) must be active and not in a
-- time-out or self-exclusion. The bet goes in and the posting function takes its stake from the wallet to
-- the stakes held (its bet_placed ledger row); then app.book_bet applies the one-side rule, the stake and liability limits, and books the bet (a
-- refusal there undoes everything).
create function app.place_bet(
  p_match_id bigint, p_team_id bigint, p_amount bigint, p_odds numeric default null, p_potential_win bigint default null
)
returns public.bets
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(true);
  v_match public.matches;
  v_odds numeric(5, 2);
  v_bet public.bets;
begin
  if p_amount is null or p_amount < 1000 then
    raise exception using errcode = 'BT400', message = 'Invalid amount: Please enter an amount of at least ₹1000.';
  end if;
  -- keeps amount × odds far inside bigint; no wallet can hold more anyway
  if p_amount > 1000000000000 then
    raise exception using errcode = 'BT409',
      message = 'Insufficient balance: You don''t have enough funds in your wallet. Please recharge your wallet.';
  end if;

  -- lock order: match (shared, so bets run in parallel but not alongside settlement or a price change), then
  -- the user; the price read here cannot change before this bet commits
  select * into v_match from public.matches where id = p_match_id for share;
  if not found then
    raise exception using errcode = 'BT404', message = 'Match not found';
  end if;
  if v_match.betting <> 'open' then
    raise exception using errcode = 'BT409', message = 'Betting is ' || v_match.betting || ' for this match';
  end if;
  if v_match.betting_pauses_at <= now() then
    raise exception using errcode = 'BT409', message = 'Betting is paused until the live score is updated';
  end if;
  if p_team_id is null or p_team_id not in (v_match.team1_id, v_match.team2_id) then
    raise exception using errcode = 'BT400', message = 'Selected team is not playing in this match';
  end if;
  v_odds := case p_team_id when v_match.team1_id then v_match.team1_odds else v_match.team2_odds end;
  if (p_odds is not null and p_odds <> v_odds)
     or (p_potential_win is not null and p_potential_win <> round(p_amount * v_odds)) then
    raise exception using errcode = 'BT409', message = 'Odds have changed';
  end if;

  select * into v_user from public.users where id = v_user.id for update;
  perform app.assert_may_gamble(v_user.id);
  if v_user.status <> 'active' then
    raise exception using errcode = 'BT403', message = 'Your account is ' || v_user.status;
  end if;
  if app.available_balance(v_user.id) < p_amount then
    raise exception using errcode = 'BT409',
      message = 'Insufficient balance: You don''t have enough funds in your wallet. Please recharge your wallet.';
  end if;

  insert into public.bets (user_id, match_id, team_id, amount, odds, potential_win, status)
  values (v_user.id, v_match.id, p_team_id, p_amount, v_odds, round(p_amount * v_odds), 'placed')
  returning * into v_bet;
  -- the stake from the wallet to the stakes held
  perform app.post_transfers(array[app.ledger_row(v_user.id, 'bet_placed', -p_amount, 'completed', 'BET-' || v_bet.id)]);
  perform app.book_bet(v_bet);
  return v_bet;
end;
$$;
comment on function app.place_bet(bigint, bigint, bigint, numeric, bigint) is
  'Places the caller''s bet at the current price of the team backed: debits the stake with its ledger row. Caller: API as the player.';

/** Functions: match administration */

-- Internal: the match row locked for update, or 404.
create function app.lock_match(p_match_id bigint)
returns public.matches
language plpgsql
set search_path = ''
as $$
declare
  v_match public.matches;
begin
  select * into v_match from public.matches where id = p_match_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Match not found';
  end if;
  return v_match;
end;
$$;
comment on function app.lock_match(bigint) is 'Internal: locks a match row for update (404 when missing).';

-- Creates an upcoming match. Teams required and different; match type t20 (default), odi, test or ipl. Both
-- sides take the price of the setting default_odds (the columns' default).
create function app.create_match(
  p_team1_id bigint, p_team2_id bigint, p_start_time timestamptz, p_match_type text default 't20',
  p_venue text default null, p_external_match_id text default null
)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_type text := coalesce(nullif(lower(btrim(p_match_type)), ''), 't20');
  v_venue text := nullif(btrim(p_venue), '');
  v_external text := nullif(btrim(p_external_match_id), '');
  v_match public.matches;
begin
  if p_team1_id is null then
    raise exception using errcode = 'BT400', message = 'Team 1 is required';
  end if;
  if p_team2_id is null then
    raise exception using errcode = 'BT400', message = 'Team 2 is required';
  end if;
  if p_start_time is null then
    raise exception using errcode = 'BT400', message = 'A match date is required.';
  end if;
  if p_team1_id = p_team2_id then
    raise exception using errcode = 'BT400',
      message = 'Invalid teams selection: Team 1 and Team 2 cannot be the same team.';
  end if;
  if (select count(*) from public.teams where id in (p_team1_id, p_team2_id)) <> 2 then
    raise exception using errcode = 'BT404', message = 'Team not found';
  end if;
  if v_type not in ('t20', 'odi', 'test', 'ipl') then
    raise exception using errcode = 'BT400', message = 'Match type must be one of t20, odi, test, ipl';
  end if;
  perform app.check_length(v_venue, 'Venue', 255);
  perform app.check_length(v_external, 'External match id', 255);
  if v_external is not null and exists (select 1 from public.matches where external_match_id = v_external) then
    raise exception using errcode = 'BT409', message = 'A match with this external id already exists';
  end if;

  insert into public.matches (team1_id, team2_id, start_time, status, match_type, venue, external_match_id)
  values (p_team1_id, p_team2_id, p_start_time, 'upcoming', v_type, v_venue, v_external)
  returning * into v_match;
  perform app.audit(v_admin.id, 'match.create', 'match', v_match.id, null, to_jsonb(v_match));
  return v_match;
end;
$$;
comment on function app.create_match(bigint, bigint, timestamptz, text, text, text) is
  'Creates an upcoming match. Caller: API as an admin.';

-- Starts an upcoming match: live, innings 1, over 0, and the live score's clock starts.
create function app.start_match(p_match_id bigint)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.matches := app.lock_match(p_match_id);
  v_match public.matches;
begin
  if v_before.status = 'live' then
    raise exception using errcode = 'BT409', message = 'Match is already live';
  end if;
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;
  update public.matches
    set status = 'live', current_innings = 1, current_over = 0, live_updated_at = now(), updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.start', 'match', v_match.id, to_jsonb(v_before), to_jsonb(v_match));
  return v_match;
end;
$$;
comment on function app.start_match(bigint) is 'Starts an upcoming match. Caller: API as an admin.';

-- A live update of a live match: scores, innings, over and the team batting first, each kept as it is when
-- left out (null). A score is 'runs/wickets' (400 'Score must look like 145/3'; an empty one keeps the
-- stored score, for a side that has not batted); the over is overs.balls within the match type's innings.
-- Who batted first, when not given and not known yet, is the only team with a score during the first
-- innings: the second innings is decided from it (house risk closes betting on a decided match). Every
-- update, even one that repeats the score, is news that the feed is alive: it moves live_updated_at, which
-- reopens bets paused for a stale score.
create function app.update_live(
  p_match_id bigint, p_team1_score text, p_team2_score text, p_current_innings int, p_current_over numeric,
  p_batting_first_team_id bigint default null
)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_team1_score text := nullif(btrim(p_team1_score), '');
  v_team2_score text := nullif(btrim(p_team2_score), '');
  v_before public.matches;
  v_overs int;
  v_match public.matches;
begin
  perform app.check_length(p_team1_score, 'Team 1 score', 50);
  perform app.check_length(p_team2_score, 'Team 2 score', 50);
  if p_current_innings is not null and p_current_innings not in (1, 2) then
    raise exception using errcode = 'BT400', message = 'Innings must be 1 or 2';
  end if;
  v_before := app.lock_match(p_match_id);
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;
  if v_before.status <> 'live' then
    raise exception using errcode = 'BT409', message = 'Match is not live';
  end if;
  v_overs := coalesce(app.innings_overs(v_before.match_type), 999);
  if p_current_over is not null and (
       p_current_over < 0 or p_current_over > v_overs
       or p_current_over * 10 <> trunc(p_current_over * 10)
       or trunc(p_current_over * 10) % 10 > 5
     ) then
    raise exception using errcode = 'BT400',
      message = format('Over must be between 0 and %s (overs.balls, balls 0-5)', v_overs);
  end if;
  if (v_team1_score is not null and (app.score_parts(v_team1_score)).runs is null)
     or (v_team2_score is not null and (app.score_parts(v_team2_score)).runs is null) then
    raise exception using errcode = 'BT400', message = 'Score must look like 145/3';
  end if;
  if p_batting_first_team_id is not null and p_batting_first_team_id not in (v_before.team1_id, v_before.team2_id) then
    raise exception using errcode = 'BT400', message = 'Batting first must be one of the two teams';
  end if;
  update public.matches m
    set team1_score = coalesce(v_team1_score, m.team1_score),
        team2_score = coalesce(v_team2_score, m.team2_score),
        current_innings = coalesce(p_current_innings, m.current_innings),
        current_over = coalesce(p_current_over, m.current_over),
        batting_first_team_id = coalesce(p_batting_first_team_id, m.batting_first_team_id,
          case when coalesce(p_current_innings, m.current_innings) = 1 then
            case when coalesce(v_team1_score, m.team1_score) is null then
                   case when coalesce(v_team2_score, m.team2_score) is not null then m.team2_id end
                 when coalesce(v_team2_score, m.team2_score) is null then m.team1_id
            end
          end),
        live_updated_at = now(),
        updated_at = now()
    where m.id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.update_live', 'match', v_match.id, to_jsonb(v_before), to_jsonb(v_match));
  return v_match;
end;
$$;
comment on function app.update_live(bigint, text, text, int, numeric, bigint) is
  'Updates a live match''s scores, innings, over and the team batting first. Caller: API as an admin.';

-- Sets the price of one or both sides of an upcoming or live match (a side left out, null, keeps its
-- price): 400 unless each price given is 1.01–100.00 with at most two decimals, and one is given; 409 'This
-- match is closed' once completed (declared or abandoned). Takes the match row `for update`, the lock every
-- bet holds `for share` from reading the price to its commit: bets in flight commit at the old price first,
-- later ones read the new price. A change that changes nothing writes nothing; a change is audited and, like
-- every match change, announced live with both prices.
create function app.set_match_odds(p_match_id bigint, p_team1_odds numeric, p_team2_odds numeric)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.matches;
  v_match public.matches;
begin
  if p_team1_odds is null and p_team2_odds is null then
    raise exception using errcode = 'BT400', message = 'Send team1_odds, team2_odds or both';
  end if;
  if p_team1_odds not between 1.01 and 100 or p_team2_odds not between 1.01 and 100 then
    raise exception using errcode = 'BT400', message = 'Odds must be between 1.01 and 100.00';
  end if;
  if p_team1_odds <> round(p_team1_odds, 2) or p_team2_odds <> round(p_team2_odds, 2) then
    raise exception using errcode = 'BT400', message = 'Odds must have at most two decimals';
  end if;
  v_before := app.lock_match(p_match_id);
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'This match is closed';
  end if;
  if coalesce(p_team1_odds, v_before.team1_odds) = v_before.team1_odds
     and coalesce(p_team2_odds, v_before.team2_odds) = v_before.team2_odds then
    return v_before;
  end if;
  update public.matches m
    set team1_odds = coalesce(p_team1_odds, m.team1_odds),
        team2_odds = coalesce(p_team2_odds, m.team2_odds),
        updated_at = now()
    where m.id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.set_odds', 'match', v_match.id,
    jsonb_build_object('team1_odds', v_before.team1_odds, 'team2_odds', v_before.team2_odds),
    jsonb_build_object('team1_odds', v_match.team1_odds, 'team2_odds', v_match.team2_odds));
  return v_match;
end;
$$;
comment on function app.set_match_odds(bigint, numeric, numeric) is
  'Sets the price of one or both sides of an upcoming or live match. Caller: API as an admin.';

/** Functions: settlement */

-- Declares the winner of a live match (404 unknown, 409 not live or already completed, 400 a team that does
-- not play; the result text is the server's, '{team} won the match') and starts its settlement, which the
-- workers finish batch by batch. Audited with the bets to settle and what the winners will be paid.
create function app.declare_winner(p_match_id bigint, p_winning_team_id bigint, p_result text default null)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.matches;
  v_team_name text;
  v_match public.matches;
begin
  if p_winning_team_id is null then
    raise exception using errcode = 'BT400', message = 'Please select a winning team';
  end if;
  -- the client's result text is only length-checked: the stored text is always computed below
  perform app.check_length(p_result, 'Result', 255);
  v_before := app.lock_match(p_match_id);
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;
  if v_before.status <> 'live' then
    raise exception using errcode = 'BT409', message = 'Match is not live';
  end if;
  if p_winning_team_id not in (v_before.team1_id, v_before.team2_id) then
    raise exception using errcode = 'BT400', message = 'Winning team must be one of the two teams';
  end if;
  select name into v_team_name from public.teams where id = p_winning_team_id;

  v_match := app.start_settlement(v_before, p_winning_team_id, v_team_name || ' won the match');
  perform app.audit(v_admin.id, 'match.declare_winner', 'match', v_match.id, to_jsonb(v_before),
    to_jsonb(v_match) || jsonb_build_object('bets_to_settle', v_match.settlement_total,
      'total_paid', (select r.expected_credit from app.settlement_runs r where r.match_id = v_match.id)));
  return v_match;
end;
$$;
comment on function app.declare_winner(bigint, bigint, text) is
  'Completes a live match with its winner and starts the settlement of its bets (batches, right after). Caller: API as an admin.';

-- Abandons an upcoming or live match (409 once completed): completed without a winner, result 'Match
-- abandoned', and a settlement that cancels every bet and refunds its stake. Audited with the bets to
-- cancel and the total to refund.
create function app.abandon_match(p_match_id bigint)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.matches := app.lock_match(p_match_id);
  v_match public.matches;
begin
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;
  v_match := app.start_settlement(v_before, null, 'Match abandoned');
  perform app.audit(v_admin.id, 'match.abandon', 'match', v_match.id, to_jsonb(v_before),
    to_jsonb(v_match) || jsonb_build_object('bets_cancelled', v_match.settlement_total,
      'total_refunded', (select r.expected_credit from app.settlement_runs r where r.match_id = v_match.id)));
  return v_match;
end;
$$;
comment on function app.abandon_match(bigint) is
  'Voids an upcoming/live match and starts the settlement that cancels its bets and refunds the stakes. Caller: API as an admin.';

/** Function privileges */

revoke execute on function
  app.match_json(public.matches),
  app.bet_json(public.bets),
  app.bets_json(public.bets[]),
  app.place_bet(bigint, bigint, bigint, numeric, bigint),
  app.lock_match(bigint),
  app.create_match(bigint, bigint, timestamptz, text, text, text),
  app.start_match(bigint),
  app.update_live(bigint, text, text, int, numeric, bigint),
  app.set_match_odds(bigint, numeric, numeric),
  app.declare_winner(bigint, bigint, text),
  app.abandon_match(bigint),
  app.innings_overs(text),
  app.score_parts(text)
  from public, anon, authenticated, service_role;
-- The answer shapes run with the caller's rights (RLS applies); anon needs the match for anonymous reads.
grant execute on function app.match_json(public.matches) to anon, authenticated, service_role;
grant execute on function app.bet_json(public.bets), app.bets_json(public.bets[]) to authenticated, service_role;
grant execute on function
  app.place_bet(bigint, bigint, bigint, numeric, bigint),
  app.create_match(bigint, bigint, timestamptz, text, text, text),
  app.start_match(bigint),
  app.update_live(bigint, text, text, int, numeric, bigint),
  app.set_match_odds(bigint, numeric, numeric),
  app.declare_winner(bigint, bigint, text),
  app.abandon_match(bigint)
  to service_role;
