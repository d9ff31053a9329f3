-- The operator sets the price, and a decided match takes no bets.
--
--   * Prices per match side: team1_odds and team2_odds (decimal odds, two decimals, 1.01-100.00), a new match
--     taking the setting default_odds (3.00, the spec's fixed price) for both; admins change them on an
--     upcoming or live match (app.set_match_odds, audited, announced live like every match change). At 3.00
--     on both sides of a two-way market the implied probabilities add up to 66.7 %: two people who back
--     opposite sides make a certain +50 %, which no rule about accounts can stop, only the price.
--   * A bet is taken at its side's price of that moment, read from the match row it holds `for share` (the
--     lock a price change needs `for update`), and keeps it: bets.odds widens to numeric(5,2); its default
--     goes (the odds are always the match's). A client price that differs is a 409 'Odds have changed'.
--   * The risk view answers the prices and their over-round, 100 × (1/team1_odds + 1/team2_odds).
--   * A decided match takes no bets: in the second innings, once the side batting second has passed the first
--     innings' runs, has 10 wickets down or has batted the match type's overs (20 for t20 and ipl, 50 for odi,
--     none for a test), the close rule closes betting, latched. Live updates read scores as runs/wickets
--     (400 'Score must look like 145/3') and learn who batted first (batting_first_team_id, given or the only
--     side with a score in the first innings). An innings lasts the match type's overs, so current_over
--     widens to numeric(4,1) (an odi reaches 50, a test innings is not limited).

/** Settings */

alter type app.risk_settings add attribute default_odds numeric(5, 2);

-- The typed settings, read by the rules with their callers' rights. PL/pgSQL keeps its plan for the session
-- (a SQL function with a pinned search_path is planned on every call, which every bet would pay).
create or replace function app.current_risk_settings()
returns app.risk_settings
language plpgsql
stable
set search_path = ''
as $$
declare
  v_settings app.risk_settings;
begin
  select (s ->> 'max_stake_per_bet')::bigint,
         (s ->> 'max_stake_per_player_match')::bigint,
         (s ->> 'max_liability_per_match')::bigint,
         (s ->> 'betting_close_over')::numeric(3, 1),
         (s ->> 'betting_pre_match_only')::boolean,
         (s ->> 'live_feed_stale_seconds')::int,
         (s ->> 'referral_bonuses_per_month')::int,
         (s ->> 'adjustment_review_amount')::bigint,
         (s ->> 'admin_credit_per_day')::bigint,
         (s ->> 'default_odds')::numeric(5, 2)
    into v_settings
    from (select jsonb_object_agg(st.key, st.value) as s from app.settings st) settings;
  return v_settings;
end;
$$;
comment on function app.current_risk_settings() is 'Internal: the house-risk settings of app.settings, typed.';


insert into app.settings (key, value, description) values
  ('default_odds', '3.00', 'The price (decimal odds) of both sides of a new match; admins then price each match.');

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

alter table public.matches
  alter column current_over type numeric(4, 1),
  drop constraint matches_current_over_check,
  add constraint matches_over_within_innings check (
    current_over >= 0 and current_over * 10 % 10 <= 5 and current_over <= coalesce(app.innings_overs(match_type), 999)
  ),
  add column team1_odds numeric(5, 2) not null default (app.current_risk_settings()).default_odds,
  add column team2_odds numeric(5, 2) not null default (app.current_risk_settings()).default_odds,
  add column batting_first_team_id bigint references public.teams (id),
  add constraint matches_odds_range check (team1_odds between 1.01 and 100 and team2_odds between 1.01 and 100),
  add constraint matches_batting_first_plays check (batting_first_team_id in (team1_id, team2_id));
comment on column public.matches.team1_odds is
  'Decimal odds of a bet on team 1 (a bet of ₹1,000 at 1.85 pays ₹1,850); set by admins, the setting default_odds when created.';
comment on column public.matches.team2_odds is 'Decimal odds of a bet on team 2.';
comment on column public.matches.batting_first_team_id is
  'The team that batted first: given with a live update, or the only team with a score during the first innings.';
-- foreign key
create index matches_batting_first_team_id_idx on public.matches (batting_first_team_id);

-- increasing the precision of a numeric does not rewrite the table
alter table public.bets
  alter column odds type numeric(5, 2),
  alter column odds drop default,
  drop constraint bets_odds_check,
  add constraint bets_odds_check check (odds between 1.01 and 100);

/** Functions: bets and match administration */

-- Places a bet for the caller. The match (shared lock, so bets run in parallel but not beside a settlement,
-- a price change or a live update) must take bets: not suspended, not closed, not paused for a stale live
-- score; the team one of its two; amount ≥ 1000 and within the available balance. The odds are the price of
-- the team backed, read from the locked match row, and the potential win round(amount × odds): a client
-- value that disagrees with either (the price the player saw has changed) is a 409 'Odds have changed'. The
-- player (locked `for update`, so one player's bets run one after the other) must be active and not in a
-- time-out or self-exclusion. One statement debits the wallet; the bet and its bet_placed ledger row go in
-- with it; then app.book_bet applies the one-side rule, the stake and liability limits, and books the bet (a
-- refusal there undoes everything).
create or replace function app.place_bet(
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

  update public.users set wallet_balance = wallet_balance - p_amount where id = v_user.id;
  insert into public.bets (user_id, match_id, team_id, amount, odds, potential_win, status)
  values (v_user.id, v_match.id, p_team_id, p_amount, v_odds, round(p_amount * v_odds), 'placed')
  returning * into v_bet;
  insert into public.transactions (user_id, amount, type, status, reference_id)
  values (v_user.id, -p_amount, 'bet_placed', 'completed', 'BET-' || v_bet.id);
  perform app.book_bet(v_bet);
  return v_bet;
end;
$$;
comment on function app.place_bet(bigint, bigint, bigint, numeric, bigint) is
  'Places the caller''s bet at the current price of the team backed: debits the stake with its ledger row. Caller: API as the player.';


drop function app.update_live(bigint, text, text, int, numeric);

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


/** Functions: house risk */

-- Raises BT400 with the setting's message unless p_value is a valid value of setting p_key. The bounds and
-- texts are those of src/domain/risk.ts (tests/db/limits-agree.test.ts checks they agree).
create or replace function app.check_risk_setting(p_key text, p_value jsonb)
returns void
language plpgsql
immutable
set search_path = ''
as $$
declare
  c_max_amount constant bigint := 1000000000;
  v_number numeric := case when jsonb_typeof(p_value) = 'number' then p_value::numeric end;
  v_whole boolean := v_number is not null and v_number = trunc(v_number);
begin
  if p_key = 'max_stake_per_bet' then
    if not (v_whole and v_number between 1000 and c_max_amount) then
      raise exception using errcode = 'BT400', message = 'Maximum stake per bet must be between ₹1,000 and ₹1,000,000,000';
    end if;
  elsif p_key = 'max_stake_per_player_match' then
    if not (v_whole and v_number between 1000 and c_max_amount) then
      raise exception using errcode = 'BT400',
        message = 'Maximum stake per player per match must be between ₹1,000 and ₹1,000,000,000';
    end if;
  elsif p_key = 'max_liability_per_match' then
    if not (v_whole and v_number between 0 and c_max_amount) then
      raise exception using errcode = 'BT400', message = 'Liability limit per match must be between ₹0 and ₹1,000,000,000';
    end if;
  elsif p_key = 'betting_close_over' then
    -- null: no close in play; else an over as matches.current_over writes it (overs.balls, balls 0-5)
    if jsonb_typeof(p_value) is distinct from 'null' and not coalesce(
         v_number between 0 and 20 and v_number * 10 = trunc(v_number * 10) and trunc(v_number * 10) % 10 <= 5, false
       ) then
      raise exception using errcode = 'BT400',
        message = 'Close over must be empty or between 0 and 20 (overs.balls, balls 0-5)';
    end if;
  elsif p_key = 'betting_pre_match_only' then
    if jsonb_typeof(p_value) is distinct from 'boolean' then
      raise exception using errcode = 'BT400', message = 'Pre-match only must be true or false';
    end if;
  elsif p_key = 'live_feed_stale_seconds' then
    -- null: bets never pause for a quiet feed
    if jsonb_typeof(p_value) is distinct from 'null' and not coalesce(v_whole and v_number between 30 and 3600, false) then
      raise exception using errcode = 'BT400', message = 'Stale live score must be empty or between 30 and 3,600 seconds';
    end if;
  elsif p_key = 'referral_bonuses_per_month' then
    if not coalesce(v_whole and v_number between 0 and 1000, false) then
      raise exception using errcode = 'BT400', message = 'Referral bonuses per month must be between 0 and 1,000';
    end if;
  elsif p_key = 'adjustment_review_amount' then
    if not coalesce(v_whole and v_number between 1 and 100000, false) then
      raise exception using errcode = 'BT400', message = 'Second approval threshold must be between ₹1 and ₹100,000';
    end if;
  elsif p_key = 'admin_credit_per_day' then
    if not coalesce(v_whole and v_number between 0 and c_max_amount, false) then
      raise exception using errcode = 'BT400', message = 'Daily credit limit per admin must be between ₹0 and ₹1,000,000,000';
    end if;
  elsif p_key = 'default_odds' then
    -- a price as matches.team1_odds holds it
    if not coalesce(v_number between 1.01 and 100 and v_number = round(v_number, 2), false) then
      raise exception using errcode = 'BT400', message = 'Default odds must be between 1.01 and 100.00, with at most two decimals';
    end if;
  else
    raise exception using errcode = 'BT400', message = 'Unknown setting: ' || p_key;
  end if;
end;
$$;
comment on function app.check_risk_setting(text, jsonb) is 'Internal: 400 unless a house-risk setting''s value is valid.';


-- Whether a match in its second innings is decided by its live score: the side batting second has passed
-- the first innings' runs or has 10 wickets down, or the innings has reached the match type's overs. Scores
-- that cannot be read, and the sides while nobody knows who batted first, decide nothing.
create function app.match_decided(p_match public.matches)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(p_match.current_innings = 2 and (
           p_match.current_over >= app.innings_overs(p_match.match_type)
           or second.wickets = 10
           or second.runs > first.runs), false)
  from app.score_parts(case p_match.batting_first_team_id
                         when p_match.team1_id then p_match.team1_score
                         when p_match.team2_id then p_match.team2_score end) first,
       app.score_parts(case p_match.batting_first_team_id
                         when p_match.team1_id then p_match.team2_score
                         when p_match.team2_id then p_match.team1_score end) second
$$;
comment on function app.match_decided(public.matches) is
  'Internal: second innings with the target passed, 10 wickets down or the overs bowled.';


-- Whether betting on a match is closed by the in-play rules: the match is live and the book is pre-match
-- only, or the second innings has reached the close over, or the match is decided. Reads the settings with
-- the caller's rights (the admin functions and the trigger below, which run as the functions' owner).
create or replace function app.betting_closes_in_play(p_match public.matches)
returns boolean
language sql
stable
set search_path = ''
as $$
  select p_match.status = 'live' and (
           s.betting_pre_match_only
           or coalesce(p_match.current_innings = 2 and p_match.current_over >= s.betting_close_over, false)
           or app.match_decided(p_match))
  from app.current_risk_settings() s
$$;
comment on function app.betting_closes_in_play(public.matches) is
  'Internal: live and pre-match-only, past the close over of the second innings, or decided.';


-- Called by app.place_bet once the bet is written (holding the match row `for share` and the player's row
-- `for update`): refuses (409, undoing the bet) a stake above the limit per bet, a bet on the other team of
-- a match the player has already backed, a stake that takes the player's total on the match above the limit
-- per player per match, and a bet that would take the house's loss should its team win above the liability
-- limit; else the bet stays in its side of the book. The liability is decided on the book's stripes, fast or
-- exactly (see the house_risk migration).
create or replace function app.book_bet(p_bet public.bets)
returns void
language plpgsql
set search_path = ''
as $$
declare
  c_min_bet constant bigint := 1000;
  -- the largest increase of the loss that may take the fast path (a stake of ₹10,000 at 3.0x), at any price
  c_fast_increase constant bigint := 20000;
  c_stripes constant int := app.book_stripes();
  v_limits app.risk_settings := app.current_risk_settings();
  v_increase bigint := p_bet.potential_win - p_bet.amount;
  v_player_staked bigint;
  v_backed bigint;
  v_loss bigint;
  v_room bigint;
  v_team_name text;
begin
  if p_bet.amount > v_limits.max_stake_per_bet then
    raise exception using errcode = 'BT409', message = 'Maximum stake per bet is ' || app.rupees(v_limits.max_stake_per_bet);
  end if;

  update app.player_match_stakes s set staked = s.staked + p_bet.amount
    where s.user_id = p_bet.user_id and s.match_id = p_bet.match_id
    returning s.staked, s.team_id into v_player_staked, v_backed;
  if not found then
    insert into app.player_match_stakes (user_id, match_id, team_id, staked)
      values (p_bet.user_id, p_bet.match_id, p_bet.team_id, p_bet.amount)
      returning staked, team_id into v_player_staked, v_backed;
  end if;
  if v_backed <> p_bet.team_id then
    select t.name into v_team_name from public.teams t where t.id = v_backed;
    raise exception using errcode = 'BT409', message = format('You have already backed %s in this match', v_team_name);
  end if;
  if v_player_staked > v_limits.max_stake_per_player_match then
    v_room := v_limits.max_stake_per_player_match - (v_player_staked - p_bet.amount);
    raise exception using errcode = 'BT409', message =
      'Maximum stake per player per match is ' || app.rupees(v_limits.max_stake_per_player_match)
      || case when v_room >= c_min_bet then ': you can stake ' || app.rupees(v_room) || ' more on this match'
              else ': you have reached it for this match' end;
  end if;

  if v_increase <= c_fast_increase then
    begin
      if app.add_to_book(p_bet, null) + (c_stripes - 1) * c_fast_increase
           <= v_limits.max_liability_per_match then
        return;
      end if;
      raise exception using errcode = 'BTXCT';
    exception when sqlstate 'BTXCT' then
      null; -- too close to the limit to count on the reserve: the stripe's update is undone, decide exactly
    end;
  end if;

  perform 1 from app.match_book k
    where k.match_id = p_bet.match_id and k.team_id = p_bet.team_id
    order by k.stripe
    for update;
  v_loss := app.add_to_book(p_bet, 0);
  if v_loss > v_limits.max_liability_per_match then
    -- what this side could still take at this bet's price: each rupee staked on it adds (odds − 1) to the
    -- loss should it win
    v_room := floor((v_limits.max_liability_per_match - (v_loss - v_increase))::numeric * p_bet.amount / v_increase);
    select t.name into v_team_name from public.teams t where t.id = p_bet.team_id;
    raise exception using errcode = 'BT409', message =
      case when v_room >= c_min_bet
        then format('Stake too high for this match: at most %s more can be staked on %s', app.rupees(v_room), v_team_name)
        else format('No more bets on %s are accepted for this match', v_team_name)
      end;
  end if;
end;
$$;
comment on function app.book_bet(public.bets) is
  'Internal (app.place_bet): stake and liability limits of a written bet, which it adds to its side of the match''s book.';


-- The risk view of a match (404 'Match not found'): per side the bets, stakes and what the side's backers
-- would be paid should it win (each bet at its own odds); the house's net should each side win (all stakes
-- minus that payout; negative is a loss); the betting state; the current prices and their over-round, 100 ×
-- (1/team1_odds + 1/team2_odds) to one decimal: below 100 a player who backs both sides in proportion to
-- the prices wins whichever side wins (at 3.00 on both, 66.7: a certain +50 %).
create or replace function app.match_risk(p_match_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_risk jsonb;
begin
  perform app.require_admin();
  select jsonb_build_object(
           'team1', jsonb_build_object('bets', k.bets1, 'staked', k.staked1, 'payout_if_wins', k.payout1),
           'team2', jsonb_build_object('bets', k.bets2, 'staked', k.staked2, 'payout_if_wins', k.payout2),
           'net_if_team1_wins', k.staked1 + k.staked2 - k.payout1,
           'net_if_team2_wins', k.staked1 + k.staked2 - k.payout2,
           'betting', m.betting,
           'team1_odds', m.team1_odds,
           'team2_odds', m.team2_odds,
           'overround_percent', round(100 * (1 / m.team1_odds + 1 / m.team2_odds), 1))
    into v_risk
    from public.matches m
    cross join lateral (
      select sum(x.bets) filter (where x.team_id = m.team1_id) as bets1,
             sum(x.staked) filter (where x.team_id = m.team1_id) as staked1,
             sum(x.payout) filter (where x.team_id = m.team1_id) as payout1,
             sum(x.bets) filter (where x.team_id = m.team2_id) as bets2,
             sum(x.staked) filter (where x.team_id = m.team2_id) as staked2,
             sum(x.payout) filter (where x.team_id = m.team2_id) as payout2
      from app.match_book x
      where x.match_id = m.id
    ) k
    where m.id = p_match_id;
  if v_risk is null then
    raise exception using errcode = 'BT404', message = 'Match not found';
  end if;
  return v_risk;
end;
$$;
comment on function app.match_risk(bigint) is 'The book of a match and the house''s net per outcome. Caller: API as an admin.';


/** Function privileges */

revoke execute on function
  app.innings_overs(text),
  app.score_parts(text),
  app.update_live(bigint, text, text, int, numeric, bigint),
  app.set_match_odds(bigint, numeric, numeric),
  app.match_decided(public.matches)
  from public, anon, authenticated, service_role;
grant execute on function
  app.update_live(bigint, text, text, int, numeric, bigint),
  app.set_match_odds(bigint, numeric, numeric)
  to service_role;
