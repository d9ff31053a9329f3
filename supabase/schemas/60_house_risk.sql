-- House risk: admins suspend and resume betting on a match, betting closes by itself in play (and stays
-- closed) and pauses while the live score is stale, a player backs one side of a match, stakes are limited
-- per bet and per player per match, and the house's worst-case loss on a match (its liability) is limited.
-- The limits are settings (app.settings): their defaults, checks and changes are in 61_settings.sql.
--
-- Where each rule is decided, and under which lock:
--
-- * Suspension and closing are state of the match row: betting_suspended (set by admins) and betting_closed
--   (latched by a trigger once the close rule applies: live and pre-match-only, past the close point of the
--   second innings, or a decided match, below; a later correction of the over or of the settings never reopens it, only an admin's
--   Resume clears it, because a corrected over must not hand the market to whoever knows the real score)
--   give the generated column betting = 'open' | 'suspended' | 'closed' (closed also once completed). So each
--   change of them is a match change: the version grows and the match_updates trigger announces the match,
--   and the bet slip follows it live. app.place_bet holds the match row `for share`; suspend, resume and live
--   updates take it `for update`: a bet commits before the change or sees it.
-- * A decided match takes no bets: in the second innings the result is known, from the scores admins type,
--   once the side batting second has more runs than the side batting first, or has 10 wickets down, or the
--   innings has reached the match type's overs (20 for t20 and ipl, 50 for odi, none for a test). Who
--   batted first is matches.batting_first_team_id (app.update_live); while it is unknown only the overs
--   decide. Part of the close rule, so latched like it.
-- * A stale live score pauses betting: fixed odds while the game moves reward whoever sees the score first,
--   so a match that is live, or upcoming past its start time, whose last live update (or start; the start
--   time of an upcoming match) is older than live_feed_stale_seconds takes no bet. The same trigger keeps
--   matches.betting_pauses_at, the moment it happens; every match answer carries it, and the next live update
--   moves it (reopening betting by itself).
-- * One side per player per match: at the default 3.0x on both sides of a two-way market, a player who backs
--   both teams is paid 150 % of their stakes whichever side wins (any prices whose over-round, 100 × the sum
--   of 1/odds, is below 100 pay a certain profit so). A player's first bet on a match fixes their side
--   (app.player_match_stakes.team_id, under the player's row lock that every bet takes), so a bet on the
--   other team is refused.
-- * The liability is decided on the book (app.match_book): the bets, stakes and payouts of each side of a
--   match, kept in app.book_stripes() (8) stripes per side. A bet on side A raises the house's loss should A
--   win (by potential win − stake, its increase, at the bet's own odds) and lowers the loss should B win, so only A's loss needs
--   checking; B's stakes can only be larger than seen (books grow until settlement, which holds the match row
--   exclusively). One row per side would make every bet on a side wait for the one before it to commit, so a
--   bet adds itself to ONE stripe of its side (one that no other bet holds, if there is one), locked until it
--   commits, and reads the whole book after that:
--     fast path (an increase of at most c_fast_increase, ₹20,000: a stake of ₹10,000 at 3.0x, of ₹1,000 up
--       to 21.0x; whatever the price, the bound is on the increase): passes when
--       the loss it sees, plus the most that bets in flight on the other 7 stripes could add (one each, at
--       most c_fast_increase each: ₹140,000), stays within the limit. Else its step is undone (a
--       subtransaction) and it takes the exact path;
--     exact path (larger bets, or near the limit): locks every stripe of the side in order, so no other bet
--       on it is in flight, and passes when the loss is within the limit.
--   Why no two bets can pass together: take the committed bet whose deciding read came last. Every other
--   committed bet had committed before that read (so it was seen), or was in flight then, holding its
--   stripe(s) from before its own read to its commit. An exact bet holds every stripe, so none was in flight
--   beside it; a fast one holds one, so at most 7 fast bets were, each adding at most c_fast_increase, which
--   its check allowed for. Lock order: a fast bet waits only for its stripe, exact bets take stripes in order.
-- * Each player's total stake on each match is kept in app.player_match_stakes, updated by every bet under
--   the player's row lock (app.place_bet holds it `for update`), so the limit costs the same at the hundredth
--   bet as at the first.
--
-- app.place_bet (matches and bets) refuses a bet unless betting is open, and calls app.book_bet last, once
-- the bet is written (a refusal there undoes it), so that book stripes are held for the shortest time.

/** Tables */

-- The book of each match: per side (team) and stripe, the bets, stakes and payouts of the bets that are not
-- cancelled (won and lost bets stay, so a settled match shows its final book; abandoning a match empties
-- it). A side's figures are the sums over its stripes (0 to app.book_stripes() − 1), which are created with
-- the match (trigger matches_open_book). Bets update stripes in place: pages keep room for HOT updates.
create table app.match_book (
  match_id bigint not null references public.matches (id) on delete cascade,
  team_id bigint not null,
  stripe int not null,
  bets bigint not null default 0 check (bets >= 0),
  staked bigint not null default 0 check (staked >= 0),
  payout bigint not null default 0 check (payout >= 0),
  constraint match_book_pkey primary key (match_id, team_id, stripe)
) with (fillfactor = 50);
comment on table app.match_book is
  'Per match, side and stripe: bets, stakes and potential payouts of the bets not cancelled. Read through app.match_risk.';
revoke all on app.match_book from public, anon, authenticated, service_role;

-- What each player has staked on each match, over all their bets on it (cancelled ones too: an abandoned
-- match takes no more bets), and the side they back (their first bet's team; positions from before the
-- one-side rule keep the side of their first bet). Written by app.book_bet only.
create table app.player_match_stakes (
  user_id bigint not null references public.users (id) on delete cascade,
  match_id bigint not null references public.matches (id) on delete cascade,
  staked bigint not null check (staked > 0),
  team_id bigint not null,
  constraint player_match_stakes_pkey primary key (user_id, match_id)
) with (fillfactor = 70);
comment on table app.player_match_stakes is
  'Per player and match: the side backed and the total staked, for the one-side rule and the stake limit per player per match.';
comment on column app.player_match_stakes.team_id is
  'The team the player backs on the match (their first bet''s): bets on the other team are refused.';
-- foreign key
create index player_match_stakes_match_id_idx on app.player_match_stakes (match_id);
revoke all on app.player_match_stakes from public, anon, authenticated, service_role;

/** Functions: texts */

-- 'Maximum stake per bet is ₹100,000'-style amounts in messages: rupees with thousands separators.
create function app.rupees(p_amount bigint)
returns text
language sql
immutable
set search_path = ''
as $$
  select '₹' || to_char(p_amount, 'FM999,999,999,999,999,990')
$$;
comment on function app.rupees(bigint) is 'Internal: 100000 → ''₹100,000'' for user-visible messages.';

/** Functions: closing in play */

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
create function app.betting_closes_in_play(p_match public.matches)
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

-- When bets on a match pause unless a live update comes first, under settings p_settings: for a live match
-- live_feed_stale_seconds after its last live update (or its start), for an upcoming one after its start
-- time; null when the setting is off or the match is completed.
create function app.betting_pauses_at(p_match public.matches, p_settings app.risk_settings)
returns timestamptz
language sql
immutable
set search_path = ''
as $$
  select case p_match.status
           when 'live' then coalesce(p_match.live_updated_at, p_match.start_time)
           when 'upcoming' then p_match.start_time
         end + make_interval(secs => p_settings.live_feed_stale_seconds)
$$;
comment on function app.betting_pauses_at(public.matches, app.risk_settings) is
  'Internal: when bets on a match pause for a stale live score, or null.';

-- Before every insert and update of a match: the close rule latches betting_closed (it never reopens by
-- itself: only app.set_betting_suspended's Resume sets it false, and then the rule decides again), and
-- betting_pauses_at follows the match and the settings.
create function app.keep_betting_state()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.betting_closed := new.betting_closed or app.betting_closes_in_play(new);
  new.betting_pauses_at := app.betting_pauses_at(new, app.current_risk_settings());
  return new;
end;
$$;
comment on function app.keep_betting_state() is
  'Trigger: latches matches.betting_closed by the close rule and keeps matches.betting_pauses_at.';

create trigger matches_betting_state
  before insert or update on public.matches
  for each row execute function app.keep_betting_state();

/** Functions: the book */

-- How many stripes each side of a book has (see the header: enough that bets in flight rarely share one).
create function app.book_stripes()
returns int
language plpgsql
immutable
set search_path = ''
as $$
begin
  return 8;
end;
$$;
comment on function app.book_stripes() is 'Internal: the number of book stripes per side of a match.';

-- After a match is inserted: its book, empty stripes for each side.
create function app.open_match_book()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  insert into app.match_book (match_id, team_id, stripe)
  select new.id, side.team_id, stripe
  from (values (new.team1_id), (new.team2_id)) side (team_id)
  cross join generate_series(0, app.book_stripes() - 1) stripe;
  return null;
end;
$$;
comment on function app.open_match_book() is 'Trigger: creates the empty book stripes of a new match.';

create trigger matches_open_book
  after insert on public.matches
  for each row execute function app.open_match_book();

-- Internal (app.book_bet): adds a bet to one stripe of its side of the book (locking that row until the bet
-- commits) and answers the house's loss should that side win, as this transaction now sees the book.
-- p_stripe null: a stripe no other bet holds (so the bet does not wait), else any.
create function app.add_to_book(p_bet public.bets, p_stripe int)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  v_stripe int := p_stripe;
begin
  if v_stripe is null then
    select k.stripe into v_stripe
      from app.match_book k
      where k.match_id = p_bet.match_id and k.team_id = p_bet.team_id
      order by random()
      limit 1
      for update skip locked;
    v_stripe := coalesce(v_stripe, floor(random() * app.book_stripes())::int);
  end if;
  update app.match_book k
    set bets = k.bets + 1, staked = k.staked + p_bet.amount, payout = k.payout + p_bet.potential_win
    where k.match_id = p_bet.match_id and k.team_id = p_bet.team_id and k.stripe = v_stripe;
  if not found then
    raise exception 'match % has no book stripe % for team %', p_bet.match_id, v_stripe, p_bet.team_id;
  end if;
  return (select (sum(k.payout) filter (where k.team_id = p_bet.team_id) - sum(k.staked))::bigint
          from app.match_book k
          where k.match_id = p_bet.match_id);
end;
$$;
comment on function app.add_to_book(public.bets, int) is
  'Internal: adds a bet to a stripe of its side''s book; the loss should that side win.';

-- Called by app.place_bet once the bet is written (holding the match row `for share` and the player's row
-- `for update`): refuses (409, undoing the bet) a stake above the limit per bet, a bet on the other team of
-- a match the player has already backed, a stake that takes the player's total on the match above the limit
-- per player per match, and a bet that would take the house's loss should its team win above the liability
-- limit; else the bet stays in its side of the book. The liability is decided on the book's stripes, fast or
-- exactly (see the house_risk migration).
create function app.book_bet(p_bet public.bets)
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

-- Book sides that disagree with their bets (must be none): for operators and tests, like app.reconcile.
create function app.reconcile_books()
returns table (match_id bigint, team_id bigint, book_bets bigint, book_staked bigint, book_payout bigint,
               bets bigint, staked bigint, payout bigint)
language sql
stable
set search_path = ''
as $$
  select k.match_id, k.team_id, k.bets, k.staked, k.payout, b.bets, b.staked, b.payout
  from (select x.match_id, x.team_id, sum(x.bets)::bigint as bets, sum(x.staked)::bigint as staked,
               sum(x.payout)::bigint as payout
        from app.match_book x
        group by x.match_id, x.team_id) k
  cross join lateral (
    select count(*) as bets, coalesce(sum(x.amount), 0)::bigint as staked, coalesce(sum(x.potential_win), 0)::bigint as payout
    from public.bets x
    where x.match_id = k.match_id and x.team_id = k.team_id and x.status <> 'cancelled'
  ) b
  where (k.bets, k.staked, k.payout) is distinct from (b.bets, b.staked, b.payout)
$$;
comment on function app.reconcile_books() is
  'Book sides that disagree with the bets not cancelled (must be none). Caller: operators and tests (no API role).';

-- Players' stake totals that disagree with their bets (must be none): for operators and tests.
create function app.reconcile_player_stakes()
returns table (user_id bigint, match_id bigint, recorded bigint, staked bigint)
language sql
stable
set search_path = ''
as $$
  select coalesce(s.user_id, b.user_id), coalesce(s.match_id, b.match_id), s.staked, b.staked
  from app.player_match_stakes s
  full join (select x.user_id, x.match_id, sum(x.amount)::bigint as staked
             from public.bets x
             group by x.user_id, x.match_id) b
    on b.user_id = s.user_id and b.match_id = s.match_id
  where s.staked is distinct from b.staked
$$;
comment on function app.reconcile_player_stakes() is
  'Per player and match, stake totals that disagree with the bets (must be none). Caller: operators and tests (no API role).';

/** Functions: the player's side */

-- The caller's position on a match: the team they back (null before their first bet) and what they have
-- staked on it. Read by the bet slip to show the other team as unavailable.
create function app.match_position(p_match_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_position jsonb;
begin
  if not exists (select 1 from public.matches m where m.id = p_match_id) then
    raise exception using errcode = 'BT404', message = 'Match not found';
  end if;
  select jsonb_build_object('team_id', s.team_id, 'staked', s.staked)
    into v_position
    from app.player_match_stakes s
    where s.user_id = v_user.id and s.match_id = p_match_id;
  return coalesce(v_position, jsonb_build_object('team_id', null, 'staked', 0));
end;
$$;
comment on function app.match_position(bigint) is
  'The caller''s side and total stake on a match. Caller: API as the player.';

/** Functions: administration */

-- Suspends (p_suspended) or resumes betting on an upcoming or live match (409 'Match is already completed'
-- otherwise). Resume also clears the close rule's latch; the rule then decides again, so a match still past
-- its close point stays closed (the answer says so) while one whose over was corrected reopens. Takes the
-- match row `for update`, so bets in flight finish first and later ones see the change. A change that
-- changes nothing writes nothing (no event, no audit row). Answers the match.
create function app.set_betting_suspended(p_match_id bigint, p_suspended boolean)
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
  if p_suspended is null then
    raise exception using errcode = 'BT400', message = 'Suspended must be true or false';
  end if;
  v_before := app.lock_match(p_match_id);
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;
  -- nothing to do: suspending a suspended match; resuming a match that is open, or that is closed and that
  -- the close rule would close again at once
  if (p_suspended and v_before.betting_suspended)
     or (not p_suspended and not v_before.betting_suspended
         and (not v_before.betting_closed or app.betting_closes_in_play(v_before))) then
    return v_before;
  end if;
  update public.matches
    set betting_suspended = p_suspended,
        betting_closed = case when p_suspended then betting_closed else false end,
        updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, case when p_suspended then 'match.suspend_betting' else 'match.resume_betting' end,
    'match', v_match.id, to_jsonb(v_before), to_jsonb(v_match));
  return v_match;
end;
$$;
comment on function app.set_betting_suspended(bigint, boolean) is
  'Suspends or resumes betting on an upcoming or live match. Caller: API as an admin.';

-- The risk view of a match (404 'Match not found'): per side the bets, stakes and what the side's backers
-- would be paid should it win (each bet at its own odds); the house's net should each side win (all stakes
-- minus that payout; negative is a loss); the betting state; the current prices and their over-round, 100 ×
-- (1/team1_odds + 1/team2_odds) to one decimal: below 100 a player who backs both sides in proportion to
-- the prices wins whichever side wins (at 3.00 on both, 66.7: a certain +50 %).
create function app.match_risk(p_match_id bigint)
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
  app.rupees(bigint),
  app.match_decided(public.matches),
  app.betting_closes_in_play(public.matches),
  app.betting_pauses_at(public.matches, app.risk_settings),
  app.keep_betting_state(),
  app.book_stripes(),
  app.open_match_book(),
  app.add_to_book(public.bets, int),
  app.book_bet(public.bets),
  app.reconcile_books(),
  app.reconcile_player_stakes(),
  app.set_betting_suspended(bigint, boolean),
  app.match_risk(bigint),
  app.match_position(bigint)
  from public, anon, authenticated, service_role;
grant execute on function
  app.match_position(bigint),
  app.set_betting_suspended(bigint, boolean),
  app.match_risk(bigint)
  to service_role;
