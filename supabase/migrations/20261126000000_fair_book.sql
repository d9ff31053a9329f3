-- The book cannot be beaten (beyond the spec): rules against players and insiders who read the rules and
-- play them. Each is decided inside the app.* function that moves the money, under the lock it already
-- takes, so two requests cannot pass a rule together.
--
-- * One side per player per match. At fixed 3.0x on both sides of a two-way market, a player who backs both
--   teams is paid 150 % of their stakes whichever side wins: a certain profit on every match. So a player's
--   first bet on a match fixes their side (app.player_match_stakes.team_id, written under the player's row
--   lock that every bet takes); a bet on the other team is a 409 'You have already backed {team} in this
--   match'.
-- * Honest in-play betting. Odds are fixed while the game moves, so whoever sees the score first can bet on
--   a near-certain outcome:
--     - a live update that leaves out the over keeps the stored one (the API no longer defaults it to 0);
--     - once the close rule has closed betting on a match it stays closed (latched in matches.betting_closed),
--       whatever a later correction of the over or of the settings says; only an admin's Resume clears the
--       latch (audited), and even then the rule still closes a match that is past its close point;
--     - a match that is live, or upcoming past its start time, whose last live update (or start) is older
--       than the setting live_feed_stale_seconds takes no bet: 409 'Betting is paused until the live score
--       is updated'. matches.betting_pauses_at says when that happens (kept by the same trigger from
--       live_updated_at, the start time and the setting), so the SPA can show it and the next live update
--       reopens betting by itself.
-- * Referral bonuses that cannot be farmed: the referrer is paid once the referred player's settled stakes
--   (won or lost bets) reach the amount of their first deposit, not at the deposit; at most
--   referral_bonuses_per_month (rolling 30 days) per referrer. app.referrals keeps each referred player's
--   progress. Same ledger row as before (referral_bonus, REFERRAL-{referred user id}), still exactly once.
-- * Four eyes on money an admin creates: a credit of at least adjustment_review_amount is a pending
--   admin_adjustment that another admin approves or rejects; each admin credits at most admin_credit_per_day
--   in 24 hours, pending credits included.
-- * Exclusion follows the person: while a self-exclusion runs, the player's bank accounts cannot be added to
--   another account, their phone number cannot open a new one, an admin cannot approve their pending
--   deposits, and their pending deposits are failed when it starts (a payment that still arrives is
--   credited, as after any rejection, and can be withdrawn).

/** Settings */

insert into app.settings (key, value, description) values
  ('live_feed_stale_seconds', '180',
   'Bets pause on a live match (or an upcoming one past its start) whose last live update or start is older than this; null: never.'),
  ('referral_bonuses_per_month', '20', 'Referral bonuses one referrer may be paid in 30 days.'),
  ('adjustment_review_amount', '50000', 'Admin credits of at least this many rupees wait for a second admin''s approval.'),
  ('admin_credit_per_day', '500000', 'Rupees one admin may credit to wallets in 24 hours, pending credits included.');

update app.settings
  set description = 'Rupees credited to the referrer once the referred player''s settled stakes reach their first deposit.'
  where key = 'referral_bonus_amount';

alter type app.risk_settings
  add attribute live_feed_stale_seconds int,
  add attribute referral_bonuses_per_month int,
  add attribute adjustment_review_amount bigint,
  add attribute admin_credit_per_day bigint;
comment on type app.risk_settings is 'The house-risk settings of app.settings, typed.';

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
         (s ->> 'admin_credit_per_day')::bigint
    into v_settings
    from (select jsonb_object_agg(st.key, st.value) as s from app.settings st) settings;
  return v_settings;
end;
$$;

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
  else
    raise exception using errcode = 'BT400', message = 'Unknown setting: ' || p_key;
  end if;
end;
$$;

/** Tables */

alter table public.matches add column live_updated_at timestamptz;
alter table public.matches add column betting_pauses_at timestamptz;
comment on column public.matches.live_updated_at is 'When the match started or last had a live update (scores, innings, over).';
comment on column public.matches.betting_pauses_at is
  'When bets pause unless a live update comes first (live_feed_stale_seconds after the last live update, the start, or the start time of an upcoming match); null: never. Kept by trigger matches_betting_state.';
comment on column public.matches.betting_closed is
  'Latched by trigger matches_betting_state once the close rule closes betting (live and pre-match-only, or past the close over of the second innings); cleared only by an admin''s Resume.';
update public.matches set live_updated_at = updated_at where status = 'live';

-- The side each player backs on each match, fixed by their first bet.
alter table app.player_match_stakes add column team_id bigint;
update app.player_match_stakes s
  set team_id = (select b.team_id from public.bets b where b.user_id = s.user_id and b.match_id = s.match_id order by b.id limit 1);
alter table app.player_match_stakes alter column team_id set not null;
comment on column app.player_match_stakes.team_id is
  'The team the player backs on the match (their first bet''s): bets on the other team are refused.';
comment on table app.player_match_stakes is
  'Per player and match: the side backed and the total staked, for the one-side rule and the stake limit per player per match.';

-- Each referred player's way to their referrer's bonus. Written at registration (a referral code),
-- at the first completed deposit (first_deposit) and by settlement (staked: bets won or lost).
create table app.referrals (
  user_id bigint primary key references public.users (id) on delete cascade,
  referrer_id bigint not null references public.users (id) on delete cascade,
  first_deposit bigint check (first_deposit > 0),
  staked bigint not null default 0 check (staked >= 0),
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  constraint referrals_not_self check (referrer_id <> user_id)
);
comment on table app.referrals is
  'Referred players: the bonus is due once staked (settled bets) reaches first_deposit; paid_at once paid.';
-- foreign key; the monthly cap counts a referrer's recent bonuses
create index referrals_referrer_id_paid_at_idx on app.referrals (referrer_id, paid_at);
revoke all on app.referrals from public, anon, authenticated, service_role;

insert into app.referrals (user_id, referrer_id, first_deposit, staked, paid_at, created_at)
select u.id, u.referred_by,
       (select t.amount from public.transactions t
        where t.user_id = u.id and t.type = 'deposit' and t.status = 'completed' order by t.id limit 1),
       (select coalesce(sum(b.amount), 0) from public.bets b where b.user_id = u.id and b.status in ('won', 'lost')),
       (select t.created_at from public.transactions t
        where t.type = 'referral_bonus' and t.reference_id = 'REFERRAL-' || u.id),
       u.created_at
from public.users u
where u.referred_by is not null;

-- Pending admin credits, and who asked for each adjustment (the daily cap counts them).
alter table public.transactions drop constraint transactions_status_by_type;
alter table public.transactions add constraint transactions_status_by_type
  check (type in ('deposit', 'withdrawal', 'admin_adjustment') or status = 'completed');
alter table public.transactions add column requested_by bigint references public.users (id) on delete set null;
alter table public.transactions add constraint transactions_requested_by_adjustment
  check (requested_by is null or type = 'admin_adjustment');
comment on column public.transactions.requested_by is 'The admin who made an admin_adjustment.';
-- foreign key; an admin's credits of the last 24 hours (only adjustments carry it, so the index stays small)
create index transactions_requested_by_idx on public.transactions (requested_by, created_at) where requested_by is not null;

-- Identity that follows a self-excluded person: the same bank account elsewhere, the same phone number.
create index bank_accounts_account_idx on public.bank_accounts (account_number, ifsc_code);

-- The digits that identify a phone number: the last ten (an Indian mobile number without +91 or 0), or all
-- of them when there are fewer; null without at least six. '+91 98765-43210' and '09876543210' agree.
create function app.phone_key(p_phone text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when length(d) >= 6 then right(d, 10) end
  from (select regexp_replace(coalesce(p_phone, ''), '[^0-9]', '', 'g') as d) digits
$$;
comment on function app.phone_key(text) is 'Internal: the comparable digits of a phone number (last ten), or null.';
create index users_phone_key_idx on public.users (app.phone_key(phone)) where phone is not null;

/** Functions: betting state */

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

drop trigger matches_betting_closed on public.matches;
drop function app.keep_betting_closed();
create trigger matches_betting_state
  before insert or update on public.matches
  for each row execute function app.keep_betting_state();

update public.matches m set betting_pauses_at = app.betting_pauses_at(m, app.current_risk_settings())
  where m.status <> 'completed';

/** Functions: matches */

-- Starts an upcoming match: live, innings 1, over 0, and the live score's clock starts.
create or replace function app.start_match(p_match_id bigint)
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

-- A live update of a live match: scores, innings and over, each kept as it is when left out (null). Every
-- update, even one that repeats the score, is news that the feed is alive: it moves live_updated_at, which
-- reopens bets paused for a stale score.
create or replace function app.update_live(
  p_match_id bigint, p_team1_score text, p_team2_score text, p_current_innings int, p_current_over numeric
)
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
  perform app.check_length(p_team1_score, 'Team 1 score', 50);
  perform app.check_length(p_team2_score, 'Team 2 score', 50);
  if p_current_innings is not null and p_current_innings not in (1, 2) then
    raise exception using errcode = 'BT400', message = 'Innings must be 1 or 2';
  end if;
  if p_current_over is not null and (
       p_current_over < 0 or p_current_over > 20
       or p_current_over * 10 <> trunc(p_current_over * 10)
       or trunc(p_current_over * 10) % 10 > 5
     ) then
    raise exception using errcode = 'BT400', message = 'Over must be between 0 and 20 (overs.balls, balls 0-5)';
  end if;
  v_before := app.lock_match(p_match_id);
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;
  if v_before.status <> 'live' then
    raise exception using errcode = 'BT409', message = 'Match is not live';
  end if;
  update public.matches
    set team1_score = coalesce(p_team1_score, team1_score),
        team2_score = coalesce(p_team2_score, team2_score),
        current_innings = coalesce(p_current_innings, current_innings),
        current_over = coalesce(p_current_over, current_over),
        live_updated_at = now(),
        updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.update_live', 'match', v_match.id, to_jsonb(v_before), to_jsonb(v_match));
  return v_match;
end;
$$;

-- Suspends (p_suspended) or resumes betting on an upcoming or live match (409 'Match is already completed'
-- otherwise). Resume also clears the close rule's latch; the rule then decides again, so a match still past
-- its close point stays closed (the answer says so) while one whose over was corrected reopens. Takes the
-- match row `for update`, so bets in flight finish first and later ones see the change. A change that
-- changes nothing writes nothing (no event, no audit row). Answers the match.
create or replace function app.set_betting_suspended(p_match_id bigint, p_suspended boolean)
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

/** Functions: bets */

-- Places a bet for the caller. The match (shared lock, so bets run in parallel but not beside a settlement
-- or a live update) must take bets: not suspended, not closed, not paused for a stale live score; the team
-- one of its two; amount ≥ 1000 and within the available balance; odds 3.00 and potential win amount × 3
-- are the server's (a client value that disagrees is a 409 'Odds have changed'). The player (locked `for
-- update`, so one player's bets run one after the other) must be active and not in a time-out or
-- self-exclusion. One statement debits the wallet; the bet and its bet_placed ledger row go in with it; then
-- app.book_bet applies the one-side rule, the stake and liability limits, and books the bet (a refusal there
-- undoes everything).
create or replace function app.place_bet(
  p_match_id bigint, p_team_id bigint, p_amount bigint, p_odds numeric default null, p_potential_win bigint default null
)
returns public.bets
language plpgsql
security definer
set search_path = ''
as $$
declare
  c_odds constant numeric(4, 2) := 3.00;
  v_user public.users := app.caller(true);
  v_match public.matches;
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

  -- lock order: match (shared, so bets run in parallel but not alongside settlement), then the user
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
  if (p_odds is not null and p_odds <> c_odds)
     or (p_potential_win is not null and p_potential_win <> round(p_amount * c_odds)) then
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
  values (v_user.id, v_match.id, p_team_id, p_amount, c_odds, round(p_amount * c_odds), 'placed')
  returning * into v_bet;
  insert into public.transactions (user_id, amount, type, status, reference_id)
  values (v_user.id, -p_amount, 'bet_placed', 'completed', 'BET-' || v_bet.id);
  perform app.book_bet(v_bet);
  return v_bet;
end;
$$;

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
  -- the largest increase of the loss that may take the fast path: a stake of ₹10,000 at 3.0x
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
    -- what this side could still take: each rupee staked on it adds (odds − 1) to the loss should it win
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

/** Functions: referrals */

-- Pays the referral bonuses now due to the referrers of p_referred: each whose settled stakes reached their
-- first deposit and is not paid yet, at most referral_bonuses_per_month per referrer in 30 days (a bonus
-- over the cap stays due: it is paid at the referred player's next settlement that finds room). Callers
-- hold the row locks of the referred players and of their referrers (so a referrer's count cannot change
-- under them). The unique REFERRAL-{referred user id} reference keeps every bonus to one payment.
create function app.pay_referral_bonuses(p_referred bigint[])
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_bonus bigint := (select (s.value #>> '{}')::bigint from app.settings s where s.key = 'referral_bonus_amount');
  v_cap int := (app.current_risk_settings()).referral_bonuses_per_month;
begin
  if coalesce(v_bonus, 0) <= 0 then
    return;
  end if;
  with due as (
    select r.user_id, r.referrer_id,
           row_number() over (partition by r.referrer_id order by r.user_id) as n
    from app.referrals r
    where r.user_id = any (p_referred) and r.paid_at is null and r.staked >= r.first_deposit
  ),
  paying as (
    select d.user_id, d.referrer_id
    from due d
    where d.n + (select count(*) from app.referrals p
                 where p.referrer_id = d.referrer_id and p.paid_at > now() - interval '30 days') <= v_cap
  ),
  ledger as (
    insert into public.transactions (user_id, amount, type, status, reference_id)
    select p.referrer_id, v_bonus, 'referral_bonus', 'completed', 'REFERRAL-' || p.user_id
    from paying p
    on conflict (type, reference_id) where reference_id is not null do nothing
    returning user_id, amount
  ),
  credited as (
    update public.users u set wallet_balance = u.wallet_balance + c.total
    from (select l.user_id, sum(l.amount) as total from ledger l group by l.user_id) c
    where u.id = c.user_id
  )
  update app.referrals r set paid_at = now()
  from paying p
  where r.user_id = p.user_id;
end;
$$;
comment on function app.pay_referral_bonuses(bigint[]) is
  'Internal: pays the due referral bonuses of these referred players (capped per referrer); callers hold their and their referrers'' locks.';

-- Completes a pending deposit (already locked by the caller): marks it completed and credits the wallet. The
-- user's first completed deposit sets the stakes their referrer's bonus waits for (normally paid later, by
-- settlement; at once only if enough was already staked, e.g. with an admin's credit).
create or replace function app.apply_deposit(p_transaction_id bigint, p_gateway_txn_id text)
returns public.transactions
language plpgsql
set search_path = ''
as $$
declare
  v_tx public.transactions;
  v_referral app.referrals;
begin
  select * into v_tx from public.transactions where id = p_transaction_id;
  -- a referred player's first completed deposit: their referrer may be paid now
  select * into v_referral from app.referrals
    where user_id = v_tx.user_id and paid_at is null and first_deposit is null;

  -- lock the wallets this may touch, lowest id first
  perform 1 from public.users where id in (v_tx.user_id, v_referral.referrer_id) order by id for update;

  update public.transactions
    set status = 'completed', gateway_txn_id = p_gateway_txn_id, updated_at = now()
    where id = v_tx.id
    returning * into v_tx;
  update public.users set wallet_balance = wallet_balance + v_tx.amount where id = v_tx.user_id;

  if v_referral.user_id is not null then
    update app.referrals set first_deposit = v_tx.amount where user_id = v_tx.user_id;
    perform app.pay_referral_bonuses(array[v_tx.user_id]);
  end if;
  return v_tx;
end;
$$;

/** Functions: settlement */

-- Settles every placed bet of a match in a handful of set-based statements (declare-winner: p_winning_team_id;
-- abandon: null, every stake refunded). Locks every player of the match, and the referrers who may be paid
-- a bonus by it, in id order (`for no key update`: two settlements sharing players cannot deadlock and
-- nobody's foreign-key checks wait), writes every ledger row in one insert, credits the wallets from one
-- aggregate, counts won and lost stakes towards referral bonuses and pays those now due, and updates every
-- bet in one statement. A void also empties the match's book.
create or replace function app.settle_bets(p_match_id bigint, p_winning_team_id bigint)
returns table (won bigint, lost bigint, cancelled bigint, credited bigint)
language plpgsql
set search_path = ''
set work_mem = '64MB'
as $$
declare
  v_void boolean := p_winning_team_id is null;
  v_referred bigint[];
begin
  perform 1 from public.users u
    where u.id in (select b.user_id from public.bets b where b.match_id = p_match_id and b.status = 'placed'
                   union all
                   select r.referrer_id from app.referrals r
                   join public.bets b on b.user_id = r.user_id and b.match_id = p_match_id and b.status = 'placed'
                   where r.paid_at is null and not v_void)
    order by u.id
    for no key update;

  insert into public.transactions (user_id, amount, type, status, reference_id)
  select b.user_id,
         case when v_void then b.amount when b.team_id = p_winning_team_id then b.potential_win else 0 end,
         case when v_void then 'bet_refund' when b.team_id = p_winning_team_id then 'bet_won' else 'bet_lost' end,
         'completed',
         'BET-' || b.id
  from public.bets b
  where b.match_id = p_match_id and b.status = 'placed';

  update public.users u set wallet_balance = u.wallet_balance + c.total
  from (select b.user_id, sum(case when v_void then b.amount else b.potential_win end) as total
        from public.bets b
        where b.match_id = p_match_id and b.status = 'placed' and (v_void or b.team_id = p_winning_team_id)
        group by b.user_id) c
  where u.id = c.user_id;

  if v_void then
    update app.match_book k set bets = 0, staked = 0, payout = 0 where k.match_id = p_match_id;
  else
    with stakes as (
      update app.referrals r set staked = r.staked + s.staked
      from (select b.user_id, sum(b.amount) as staked
            from public.bets b
            join app.referrals x on x.user_id = b.user_id and x.paid_at is null
            where b.match_id = p_match_id and b.status = 'placed'
            group by b.user_id) s
      where r.user_id = s.user_id
      returning r.user_id
    )
    select array_agg(user_id) into v_referred from stakes;
    if v_referred is not null then
      perform app.pay_referral_bonuses(v_referred);
    end if;
  end if;

  return query
    with settled as (
      update public.bets b
        set status = case when v_void then 'cancelled' when b.team_id = p_winning_team_id then 'won' else 'lost' end,
            settled_at = now()
        where b.match_id = p_match_id and b.status = 'placed'
        returning b.status, b.amount, b.potential_win
    )
    select count(*) filter (where s.status = 'won'),
           count(*) filter (where s.status = 'lost'),
           count(*) filter (where s.status = 'cancelled'),
           coalesce(sum(case s.status when 'won' then s.potential_win when 'cancelled' then s.amount else 0 end), 0)::bigint
    from settled s;
end;
$$;

/** Functions: identity */

-- Whether a self-exclusion of the user runs at p_now (a time-out binds only the account that took it).
create function app.is_self_excluded(p_user_id bigint, p_now timestamptz default now())
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return exists (select 1 from app.running_exclusions(p_user_id, p_now) e where e.kind = 'self_exclusion');
end;
$$;
comment on function app.is_self_excluded(bigint, timestamptz) is 'Internal: a self-exclusion of the user runs at p_now.';

-- Registers a player (user/active) with an optional referral code. A phone number that a self-excluded
-- player has on their account opens no account while the exclusion runs (403, worded so it tells a stranger
-- nothing about anyone's exclusion).
create or replace function app.register_user(
  p_username text, p_password_hash text, p_name text, p_email text, p_phone text, p_referral_code text
)
returns public.users
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_username text := btrim(p_username);
  v_name text := btrim(p_name);
  v_email text := lower(btrim(p_email));
  v_phone text := nullif(btrim(p_phone), '');
  v_code text := nullif(upper(btrim(p_referral_code)), '');
  v_referrer bigint;
  v_user public.users;
  v_constraint text;
begin
  if v_username is null or length(v_username) < 3 then
    raise exception using errcode = 'BT400', message = 'Username must be at least 3 characters';
  end if;
  perform app.check_length(v_username, 'Username', 255);
  perform app.check_username(v_username);
  if p_password_hash is null or length(p_password_hash) = 0 then
    raise exception using errcode = 'BT400', message = 'Password is required';
  end if;
  perform app.check_length(p_password_hash, 'Password', 255);
  if v_name is null or length(v_name) < 2 then
    raise exception using errcode = 'BT400', message = 'Name must be at least 2 characters';
  end if;
  perform app.check_length(v_name, 'Name', 255);
  if v_email is null or v_email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception using errcode = 'BT400', message = 'Please enter a valid email';
  end if;
  perform app.check_length(v_email, 'Email', 255);
  perform app.check_length(v_phone, 'Phone', 50);
  perform app.check_length(v_code, 'Referral code', 50);

  if exists (select 1 from public.users where lower(username) = lower(v_username)) then
    raise exception using errcode = 'BT409', message = 'Username already exists';
  end if;
  if exists (select 1 from public.users where lower(email) = v_email) then
    raise exception using errcode = 'BT409', message = 'Email already registered';
  end if;
  if app.phone_key(v_phone) is not null and exists (
    select 1 from public.users u
    where app.phone_key(u.phone) = app.phone_key(v_phone) and u.phone is not null and app.is_self_excluded(u.id)
  ) then
    raise exception using errcode = 'BT403', message = 'We can''t open an account with these details';
  end if;
  if v_code is not null then
    select id into v_referrer from public.users where referral_code = v_code;
    if v_referrer is null then
      raise exception using errcode = 'BT400', message = 'Invalid referral code';
    end if;
  end if;

  begin
    insert into public.users (username, name, email, phone, referral_code, referred_by, role, status)
    values (v_username, v_name, v_email, v_phone, app.new_referral_code(), v_referrer, 'user', 'active')
    returning * into v_user;
  exception when unique_violation then
    -- a concurrent registration won the race
    get stacked diagnostics v_constraint = constraint_name;
    if v_constraint = 'users_email_lower_key' then
      raise exception using errcode = 'BT409', message = 'Email already registered';
    end if;
    raise exception using errcode = 'BT409', message = 'Username already exists';
  end;
  insert into app.credentials (user_id, password_hash) values (v_user.id, p_password_hash);
  if v_referrer is not null then
    insert into app.referrals (user_id, referrer_id) values (v_user.id, v_referrer);
  end if;
  return v_user;
end;
$$;

-- Saves a bank account for the caller (owner = caller; any user_id in the request is ignored by the API).
-- Suspended users may still add accounts; banned users cannot act at all. IFSC is upper-cased. An account
-- (number and IFSC) that a self-excluded player has on their account cannot be added to another one while
-- the exclusion runs (403, saying nothing about whose it is).
create or replace function app.add_bank_account(
  p_account_holder text, p_account_number text, p_ifsc_code text, p_bank_name text
)
returns public.bank_accounts
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_holder text := btrim(p_account_holder);
  v_number text := btrim(p_account_number);
  v_ifsc text := upper(btrim(p_ifsc_code));
  v_bank text := btrim(p_bank_name);
  v_account public.bank_accounts;
begin
  if v_holder is null or length(v_holder) < 3 then
    raise exception using errcode = 'BT400', message = 'Account holder name must be at least 3 characters';
  end if;
  perform app.check_length(v_holder, 'Account holder name', 255);
  if v_number is null or length(v_number) < 9 then
    raise exception using errcode = 'BT400', message = 'Account number must be valid';
  end if;
  perform app.check_length(v_number, 'Account number', 50);
  if v_ifsc is null or length(v_ifsc) <> 11 then
    raise exception using errcode = 'BT400', message = 'IFSC code must be 11 characters';
  end if;
  if v_bank is null or length(v_bank) < 3 then
    raise exception using errcode = 'BT400', message = 'Bank name must be at least 3 characters';
  end if;
  perform app.check_length(v_bank, 'Bank name', 255);
  if exists (
    select 1 from public.bank_accounts b
    where b.account_number = v_number and b.ifsc_code = v_ifsc and b.user_id <> v_user.id
      and app.is_self_excluded(b.user_id)
  ) then
    raise exception using errcode = 'BT403', message = 'This bank account cannot be used';
  end if;

  insert into public.bank_accounts (user_id, account_holder, account_number, ifsc_code, bank_name)
  values (v_user.id, v_holder, v_number, v_ifsc, v_bank)
  on conflict (user_id, account_number, ifsc_code) do nothing
  returning * into v_account;
  if v_account.id is null then
    raise exception using errcode = 'BT409', message = 'Bank account already added';
  end if;
  return v_account;
end;
$$;

/** Functions: player protection */

-- Starts a time-out or self-exclusion of p_user (locked by the caller) at p_now until p_ends_at; a request
-- ending no later than the one running is a 409. A self-exclusion also fails the player's pending deposits
-- (audit 'deposit.failed_by_exclusion', no admin): nobody may complete them for the player now, yet a payment
-- that still arrives is credited (app.complete_deposit) and can be withdrawn. A deposit that a webhook or an
-- admin is completing at this very moment (its row locked) is skipped: it completes, or the approval sees
-- the exclusion and refuses.
create or replace function app.start_exclusion(p_user public.users, p_kind text, p_ends_at timestamptz, p_now timestamptz)
returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  v_running public.protection_changes;
begin
  select * into v_running from app.active_exclusion(p_user.id, p_now);
  if found and v_running.ends_at >= p_ends_at then
    raise exception using errcode = 'BT409', message = format('Already excluded: Your %s runs until %s.',
      case v_running.kind when 'timeout' then 'time-out' else 'self-exclusion' end, app.format_ist(v_running.ends_at));
  end if;
  insert into public.protection_changes (user_id, changed_by, kind, requested_at, effective_at, ends_at)
  values (p_user.id, p_user.id, p_kind, p_now, p_now, p_ends_at);

  if p_kind = 'self_exclusion' then
    with pending as (
      select t.id from public.transactions t
      where t.user_id = p_user.id and t.type = 'deposit' and t.status = 'pending'
      for update skip locked
    ),
    failed as (
      update public.transactions t set status = 'failed', updated_at = now()
      from pending p
      where t.id = p.id
      returning t.id, t.amount
    )
    insert into public.audit_log (admin_id, action, target_type, target_id, before, after)
    select null, 'deposit.failed_by_exclusion', 'transaction', f.id,
           jsonb_build_object('status', 'pending'), jsonb_build_object('status', 'failed', 'amount', f.amount)
    from failed f;
  end if;
  return app.protection_json(p_user.id, p_now);
end;
$$;

/** Functions: deposits */

-- The payment gateway's confirmation (signed webhook; the API verifies the signature). No claims.
-- 'success' completes and credits the stored amount once; 'failed' marks the deposit failed. Unknown
-- reference 404; amount differing from the stored one 409; a replay of the event already applied returns the
-- row unchanged. A success for a deposit that failed without the gateway's word — rejected by an admin,
-- expired, or failed when its player self-excluded — proves the money arrived: it is credited once, with an
-- audit row 'deposit.paid_after_rejection' naming what it overrides. Any other conflicting event on a settled
-- deposit is a 409. A gateway id stored on another deposit is a 409 'Duplicate gateway transaction', also when
-- a concurrent webhook for another deposit stores it first.
create or replace function app.complete_deposit(p_reference text, p_amount bigint, p_status text, p_gateway_txn_id text)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_tx public.transactions;
  v_gateway text := nullif(btrim(p_gateway_txn_id), '');
  v_rejection public.audit_log;
  v_constraint text;
begin
  if p_status is null or p_status not in ('success', 'failed') then
    raise exception using errcode = 'BT400', message = 'Invalid status';
  end if;
  perform app.check_length(v_gateway, 'Gateway transaction id', 255);
  select * into v_tx from public.transactions
    where type = 'deposit' and reference_id = p_reference
    for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Unknown reference';
  end if;
  if p_amount is distinct from v_tx.amount then
    raise exception using errcode = 'BT409', message = 'Amount mismatch';
  end if;

  if v_tx.status <> 'pending' then
    if ((v_tx.status = 'completed' and p_status = 'success') or (v_tx.status = 'failed' and p_status = 'failed'))
       and (v_gateway is null or v_tx.gateway_txn_id is null or v_tx.gateway_txn_id = v_gateway) then
      return v_tx;  -- replay of the event already applied
    end if;
    if v_tx.status = 'failed' and p_status = 'success' then
      select * into v_rejection from public.audit_log a
        where a.action in ('transaction.reject', 'deposit.expired', 'deposit.failed_by_exclusion')
          and a.target_type = 'transaction' and a.target_id = v_tx.id
        order by a.id desc
        limit 1;
    end if;
    if v_rejection.id is null then
      raise exception using errcode = 'BT409', message = 'Transaction already settled';
    end if;
    if exists (
      select 1 from public.audit_log a
      where a.action = 'deposit_paid_after_rejection' and a.target_type = 'transaction' and a.target_id = v_tx.id
    ) then
      return v_tx;  -- recorded uncredited by the previous rule: the admins settle it
    end if;
  end if;

  if v_gateway is not null and exists (
    select 1 from public.transactions where gateway_txn_id = v_gateway and id <> v_tx.id
  ) then
    raise exception using errcode = 'BT409', message = 'Duplicate gateway transaction';
  end if;

  begin
    if p_status = 'success' then
      v_tx := app.apply_deposit(v_tx.id, v_gateway);
      if v_rejection.id is not null then
        perform app.audit(null, 'deposit.paid_after_rejection', 'transaction', v_tx.id,
          jsonb_build_object('status', 'failed', 'rejection_audit_id', v_rejection.id, 'failed_by', v_rejection.action,
                             'rejected_by', v_rejection.admin_id, 'rejected_at', v_rejection.created_at),
          jsonb_build_object('status', v_tx.status, 'gateway_txn_id', v_gateway, 'amount', v_tx.amount));
      end if;
      return v_tx;
    end if;
    update public.transactions
      set status = 'failed', gateway_txn_id = v_gateway, updated_at = now()
      where id = v_tx.id
      returning * into v_tx;
    return v_tx;
  exception when unique_violation then
    -- a concurrent webhook for another deposit stored the same gateway id first
    get stacked diagnostics v_constraint = constraint_name;
    if v_constraint = 'transactions_gateway_txn_id_key' then
      raise exception using errcode = 'BT409', message = 'Duplicate gateway transaction';
    end if;
    raise;
  end;
end;
$$;

/** Functions: administration */

-- An admin's wallet adjustment (signed; |amount| 1–100000; notes required, at most 200 characters; never
-- the admin's own wallet; a debit may not take the available balance below zero). A credit counts towards
-- the admin's admin_credit_per_day over the last 24 hours, pending credits included (409 'Daily credit
-- limit reached'); credits of the same admin are serialized by an advisory lock taken first, so two cannot
-- pass the cap together. A credit of at least adjustment_review_amount is written pending (balance
-- untouched) for another admin to approve or reject; anything else moves money at once. Audited either way.
create or replace function app.admin_adjust_wallet(p_user_id bigint, p_amount bigint, p_notes text)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_settings app.risk_settings := app.current_risk_settings();
  v_notes text := btrim(p_notes);
  v_pending boolean := p_amount >= v_settings.adjustment_review_amount;
  v_credited bigint;
  v_before public.users;
  v_after public.users;
  v_tx public.transactions;
begin
  if p_amount is null or p_amount = 0 then
    raise exception using errcode = 'BT400', message = 'Amount must be greater than 0';
  end if;
  if abs(p_amount) > 100000 then
    raise exception using errcode = 'BT400', message = 'Maximum amount is 100,000';
  end if;
  if v_notes is null or v_notes = '' then
    raise exception using errcode = 'BT400', message = 'Please provide a reason for this adjustment';
  end if;
  if length(v_notes) > 200 then
    raise exception using errcode = 'BT400', message = 'Notes must be under 200 characters';
  end if;
  if p_user_id = v_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot approve or adjust your own wallet';
  end if;

  if p_amount > 0 then
    perform pg_advisory_xact_lock(hashtextextended('admin-credit:' || v_admin.id, 0));
    select coalesce(sum(t.amount), 0) into v_credited
      from public.transactions t
      where t.requested_by = v_admin.id and t.created_at > now() - interval '24 hours'
        and t.amount > 0 and t.status <> 'failed';
    if v_credited + p_amount > v_settings.admin_credit_per_day then
      raise exception using errcode = 'BT409', message = 'Daily credit limit reached';
    end if;
  end if;

  select * into v_before from public.users where id = p_user_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  -- the user row is locked, so no withdrawal can be requested or approved meanwhile
  if p_amount < 0 and app.available_balance(v_before.id) + p_amount < 0 then
    raise exception using errcode = 'BT409', message = 'Insufficient balance';
  end if;

  insert into public.transactions (user_id, amount, type, status, notes, requested_by)
  values (v_before.id, p_amount, 'admin_adjustment', case when v_pending then 'pending' else 'completed' end,
          v_notes, v_admin.id)
  returning * into v_tx;
  update public.transactions set reference_id = 'ADJ-' || v_tx.id where id = v_tx.id returning * into v_tx;
  if v_pending then
    perform app.audit(v_admin.id, 'wallet.adjust_requested', 'user', v_before.id,
      jsonb_build_object('wallet_balance', v_before.wallet_balance),
      jsonb_build_object('amount', p_amount, 'notes', v_notes, 'transaction_id', v_tx.id, 'status', 'pending'));
    return v_tx;
  end if;

  update public.users set wallet_balance = wallet_balance + p_amount where id = v_before.id
    returning * into v_after;
  perform app.audit(v_admin.id, 'wallet.adjust', 'user', v_before.id,
    jsonb_build_object('wallet_balance', v_before.wallet_balance),
    jsonb_build_object('wallet_balance', v_after.wallet_balance, 'amount', p_amount, 'notes', v_notes,
                       'transaction_id', v_tx.id));
  return v_tx;
end;
$$;

-- Approves a pending transaction (not the admin's own): a deposit is completed and credited (not while its
-- player is self-excluded: 409 'This player is self-excluded'); a withdrawal is debited (re-checked against
-- the balance); an admin credit is applied, by an admin other than the one who asked for it (403 'A second
-- administrator must approve this adjustment'). Lock order: the transaction, then the user.
create or replace function app.approve_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions;
  v_tx public.transactions;
  v_balance bigint;
begin
  v_before := app.lock_pending_transaction(p_transaction_id, v_admin);
  if v_before.type = 'deposit' then
    v_tx := app.apply_deposit(v_before.id, null);
    -- checked once apply_deposit holds the player's row, which a self-exclusion takes too: one that started
    -- before is seen here (and undoes the credit), one that starts later comes after this approval
    if app.is_self_excluded(v_before.user_id) then
      raise exception using errcode = 'BT409', message = 'This player is self-excluded';
    end if;
  else
    -- a withdrawal (negative) or an admin credit: the balance moves by the amount
    select wallet_balance into v_balance from public.users where id = v_before.user_id for update;
    if v_balance + v_before.amount < 0 then
      raise exception using errcode = 'BT409', message = 'Insufficient balance';
    end if;
    update public.transactions set status = 'completed', updated_at = now()
      where id = v_before.id
      returning * into v_tx;
    update public.users set wallet_balance = wallet_balance + v_tx.amount where id = v_tx.user_id;
  end if;
  perform app.audit(v_admin.id, 'transaction.approve', 'transaction', v_tx.id, to_jsonb(v_before), to_jsonb(v_tx));
  return v_tx;
end;
$$;

-- Rejects a pending transaction (not the admin's own; an admin credit not by the admin who asked for it):
-- marked failed, no money moves.
create or replace function app.reject_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions := app.lock_pending_transaction(p_transaction_id, v_admin);
  v_tx public.transactions;
begin
  update public.transactions set status = 'failed', updated_at = now()
    where id = v_before.id
    returning * into v_tx;
  perform app.audit(v_admin.id, 'transaction.reject', 'transaction', v_tx.id, to_jsonb(v_before), to_jsonb(v_tx));
  return v_tx;
end;
$$;

-- The pending transaction an admin approves or rejects, locked: 404 unknown, 403 the admin's own wallet, 403
-- an admin credit the admin asked for (four eyes), 409 not pending.
create function app.lock_pending_transaction(p_transaction_id bigint, p_admin public.users)
returns public.transactions
language plpgsql
set search_path = ''
as $$
declare
  v_tx public.transactions;
begin
  select * into v_tx from public.transactions where id = p_transaction_id for update;
  if not found then
    raise exception using errcode = 'BT404', message = 'Transaction not found';
  end if;
  if v_tx.user_id = p_admin.id then
    raise exception using errcode = 'BT403', message = 'You cannot approve or adjust your own wallet';
  end if;
  if v_tx.status <> 'pending' then
    raise exception using errcode = 'BT409', message = 'Transaction is not pending';
  end if;
  if v_tx.requested_by = p_admin.id then
    raise exception using errcode = 'BT403', message = 'A second administrator must approve this adjustment';
  end if;
  return v_tx;
end;
$$;
comment on function app.lock_pending_transaction(bigint, public.users) is
  'Internal: locks a pending transaction an admin may decide (not their own wallet, not their own credit).';

-- Changes house-risk settings named in p_changes ({"key": value, …}; keys left out keep their value), each
-- checked by app.check_risk_setting (400 on the first invalid one; nothing changes then). One audit row
-- ('settings.update') holds the old and new values of the keys that changed. When the close or stale-feed
-- settings change, the matches still to be settled are brought up to date (a close rule that now applies
-- latches; the pause moves), which announces those that changed. Answers the settings as they now are.
create or replace function app.update_risk_settings(p_changes jsonb)
returns app.risk_settings
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before jsonb := to_jsonb(app.current_risk_settings());
  v_settings app.risk_settings;
  v_old jsonb;
  v_new jsonb;
  v_key text;
  v_value jsonb;
begin
  if jsonb_typeof(p_changes) is distinct from 'object' then
    raise exception using errcode = 'BT400', message = 'Settings must be a JSON object';
  end if;
  for v_key, v_value in select c.key, c.value from jsonb_each(p_changes) c loop
    perform app.check_risk_setting(v_key, v_value);
  end loop;

  update app.settings s set value = c.value
    from jsonb_each(p_changes) c
    where s.key = c.key and s.value <> c.value;
  v_settings := app.current_risk_settings();
  select jsonb_object_agg(b.key, b.value), jsonb_object_agg(b.key, to_jsonb(v_settings) -> b.key)
    into v_old, v_new
    from jsonb_each(v_before) b
    where b.value <> to_jsonb(v_settings) -> b.key;
  if v_old is null then
    return v_settings;
  end if;
  perform app.audit(v_admin.id, 'settings.update', 'settings', null, v_old, v_new);

  if v_old ?| array['betting_close_over', 'betting_pre_match_only', 'live_feed_stale_seconds'] then
    update public.matches m set updated_at = now()
      where m.status <> 'completed'
        and ((not m.betting_closed and app.betting_closes_in_play(m))
             or m.betting_pauses_at is distinct from app.betting_pauses_at(m, v_settings));
  end if;
  return v_settings;
end;
$$;

/** Function privileges */

revoke execute on function
  app.phone_key(text),
  app.betting_pauses_at(public.matches, app.risk_settings),
  app.keep_betting_state(),
  app.match_position(bigint),
  app.pay_referral_bonuses(bigint[]),
  app.is_self_excluded(bigint, timestamptz),
  app.lock_pending_transaction(bigint, public.users)
  from public, anon, authenticated, service_role;
grant execute on function app.match_position(bigint) to service_role;

/** Functions: answer shapes */

-- A match as the API answers it and its live events carry it: the row without the internal betting flags
-- and the live score's clock (their outcome is `betting`, and `betting_pauses_at` says when bets pause unless
-- the score is updated first), with its teams and additionalDetails.status (the result once completed).
create or replace function app.match_json(p_match public.matches)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select (to_jsonb(p_match) - '{betting_suspended,betting_closed,live_updated_at}'::text[]) || jsonb_build_object(
      'team1', (select to_jsonb(t) from public.teams t where t.id = p_match.team1_id),
      'team2', (select to_jsonb(t) from public.teams t where t.id = p_match.team2_id),
      'additionalDetails', jsonb_build_object('status', p_match.match_result))
  );
end;
$$;
