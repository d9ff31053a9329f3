-- Matches and bets: the match lifecycle (upcoming → live → completed), live updates with notifications,
-- bet placement and set-based settlement (declare winner) or voiding (abandon).
--
-- Money rules: a bet debits the stake and writes a completed bet_placed ledger row
-- (-amount, reference BET-{bet id}) in the same transaction; settlement writes bet_won (+potential_win) and
-- bet_lost (0) rows; abandoning writes bet_refund (+amount) rows. The unique (type, reference_id) index on
-- the ledger makes a second payout of one bet impossible.
--
-- Lock order (shared with the wallet migration): the match row first, then user rows by ascending id.
-- place_bet holds the match row `for share` while it debits, declare_winner/abandon_match take it
-- `for update`: a bet either commits before settlement (and is settled) or sees the match completed.
--
-- Advisor note (INFO 0005 unused_index): see the identity migration.

/** Tables */

-- Spec §3.5. A match lasts 20 overs: current_over is overs.balls with balls 0-5 (12.6 is not an over).
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
  current_over numeric(3, 1) check (current_over >= 0 and current_over <= 20 and current_over * 10 % 10 <= 5),
  match_result varchar(255),
  winning_team_id bigint references public.teams (id),
  external_match_id varchar(255),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint matches_teams_differ check (team1_id <> team2_id),
  constraint matches_winner_plays check (winning_team_id is null or winning_team_id in (team1_id, team2_id)),
  constraint matches_result_when_completed check ((status = 'completed') = (match_result is not null)),
  constraint matches_winner_when_completed check (status = 'completed' or winning_team_id is null)
);
comment on table public.matches is 'Cricket matches (spec §3.5). Readable by everyone; changed by admin functions only.';
comment on column public.matches.match_result is '''{team name} won the match'', or ''Match abandoned''.';
-- foreign keys
create index matches_team1_id_idx on public.matches (team1_id);
create index matches_team2_id_idx on public.matches (team2_id);
create index matches_winning_team_id_idx on public.matches (winning_team_id);
-- GET /api/matches?status=… ordered by start time
create index matches_status_start_time_idx on public.matches (status, start_time);
-- an external feed's id identifies one match
create unique index matches_external_match_id_key on public.matches (external_match_id)
  where external_match_id is not null;

-- Spec §3.6. Odds and potential win are computed by the server (fixed 3.00).
create table public.bets (
  id bigint generated always as identity primary key,
  user_id bigint not null references public.users (id) on delete restrict,
  match_id bigint not null references public.matches (id) on delete restrict,
  team_id bigint not null references public.teams (id),
  amount bigint not null check (amount >= 1000),
  odds numeric(4, 2) not null default 3.00 check (odds > 1),
  potential_win bigint not null,
  status varchar(50) not null default 'placed' check (status in ('placed', 'won', 'lost', 'cancelled')),
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  constraint bets_potential_win check (potential_win = round(amount * odds)),
  constraint bets_settled_at check ((status = 'placed') = (settled_at is null))
);
comment on table public.bets is 'Players'' bets (spec §3.6); placed, then won/lost at settlement or cancelled on abandon.';
-- foreign key, RLS filter, "my bets, newest first"
create index bets_user_id_created_at_idx on public.bets (user_id, created_at desc);
-- foreign key, "bets of this match" and settlement (match_id, status = 'placed')
create index bets_match_id_status_idx on public.bets (match_id, status);
-- foreign key
create index bets_team_id_idx on public.bets (team_id);
-- dashboard window (last 7 days)
create index bets_created_at_idx on public.bets (created_at);

/** Privileges */

revoke all on public.matches, public.bets from anon, authenticated, service_role;
grant select on public.matches to anon, authenticated, service_role;
grant select on public.bets to authenticated, service_role;
-- hosted Supabase's default privileges also grant writes on teams (foundation migration): reads only
revoke insert, update, delete, truncate, references, trigger on public.teams from anon, authenticated;

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

/** Live updates */

-- Every change of a match row is announced on channel match_updates as {"id":…,"status":…}; the local
-- runtime relays it to browsers over SSE. Not SECURITY DEFINER: pg_notify needs no privilege.
create function app.notify_match_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('match_updates', json_build_object('id', new.id, 'status', new.status)::text);
  return null;
end;
$$;
comment on function app.notify_match_change() is 'Trigger: pg_notify(match_updates) on every match insert/update.';

create trigger matches_notify
  after insert or update on public.matches
  for each row execute function app.notify_match_change();

-- On Supabase, Realtime streams the table itself; vanilla Postgres has no such publication.
do $$
begin
  if exists (select 1 from pg_publication where pubname = 'supabase_realtime' and not puballtables)
     and not exists (
       select 1 from pg_publication_tables
       where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'matches'
     ) then
    alter publication supabase_realtime add table public.matches;
  end if;
end
$$;

/** Functions: bets */

-- Places a bet for the caller. Rules: caller active; amount >= 1000; match upcoming or live; team is one
-- of the match's two; odds 3.00 and potential_win = amount × 3 are the server's (client values that differ
-- are a 409 'Odds have changed'); available balance >= amount. Debits the wallet and writes the bet and its
-- bet_placed ledger row in one transaction.
create function app.place_bet(
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
  if v_match.status not in ('upcoming', 'live') then
    raise exception using errcode = 'BT409', message = 'Betting is closed for this match';
  end if;
  if p_team_id is null or p_team_id not in (v_match.team1_id, v_match.team2_id) then
    raise exception using errcode = 'BT400', message = 'Selected team is not playing in this match';
  end if;
  if (p_odds is not null and p_odds <> c_odds)
     or (p_potential_win is not null and p_potential_win <> round(p_amount * c_odds)) then
    raise exception using errcode = 'BT409', message = 'Odds have changed';
  end if;

  select * into v_user from public.users where id = v_user.id for update;
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
  return v_bet;
end;
$$;
comment on function app.place_bet(bigint, bigint, bigint, numeric, bigint) is
  'Places the caller''s bet at 3.00: debits the stake with its ledger row. Caller: API as the player.';

/** Functions: match administration */

-- Creates an upcoming match. Teams required and different; match type t20 (default), odi, test or ipl.
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

-- Starts an upcoming match: live, innings 1, over 0.
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
    set status = 'live', current_innings = 1, current_over = 0, updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.start', 'match', v_match.id, to_jsonb(v_before), to_jsonb(v_match));
  return v_match;
end;
$$;
comment on function app.start_match(bigint) is 'Starts an upcoming match. Caller: API as an admin.';

-- Updates a live match's scores and state. Null arguments keep the current value. Innings 1 or 2; over
-- between 0 and 20 written overs.balls with one decimal and balls 0-5.
create function app.update_live(
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
        updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.update_live', 'match', v_match.id, to_jsonb(v_before), to_jsonb(v_match));
  return v_match;
end;
$$;
comment on function app.update_live(bigint, text, text, int, numeric) is
  'Updates a live match''s scores, innings and over. Caller: API as an admin.';

-- Declares the winner of a live match and settles its bets, set-based (one statement, no per-bet loop):
-- bets on the winner become won with a bet_won ledger row of +potential_win and the wallet credited;
-- the others become lost with a bet_lost row of 0. The match becomes completed with
-- match_result '{team name} won the match' (computed here; p_result is not used). A second call is a 409.
create function app.declare_winner(p_match_id bigint, p_winning_team_id bigint, p_result text default null)
returns public.matches
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.matches;
  v_match public.matches;
  v_team_name text;
  v_won bigint;
  v_lost bigint;
  v_paid bigint;
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

  -- lock the winners' wallets in ascending id order (no deadlock with other settlements or bets)
  perform 1 from public.users
    where id in (select user_id from public.bets where match_id = v_before.id and status = 'placed'
                 and team_id = p_winning_team_id)
    order by id
    for update;

  with settled as (
    update public.bets b
      set status = case when b.team_id = p_winning_team_id then 'won' else 'lost' end,
          settled_at = now()
      where b.match_id = v_before.id and b.status = 'placed'
      returning b.id, b.user_id, b.status, b.potential_win
  ), ledger as (
    insert into public.transactions (user_id, amount, type, status, reference_id)
    select s.user_id,
           case when s.status = 'won' then s.potential_win else 0 end,
           case when s.status = 'won' then 'bet_won' else 'bet_lost' end,
           'completed',
           'BET-' || s.id
    from settled s
    returning id
  ), credits as (
    update public.users u
      set wallet_balance = u.wallet_balance + w.total
      from (select s.user_id, sum(s.potential_win) as total from settled s where s.status = 'won' group by s.user_id) w
      where u.id = w.user_id
      returning u.id
  )
  select count(*) filter (where s.status = 'won'),
         count(*) filter (where s.status = 'lost'),
         coalesce(sum(s.potential_win) filter (where s.status = 'won'), 0)
    into v_won, v_lost, v_paid
    from settled s;

  update public.matches
    set status = 'completed', winning_team_id = p_winning_team_id,
        match_result = v_team_name || ' won the match', updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.declare_winner', 'match', v_match.id, to_jsonb(v_before),
    to_jsonb(v_match) || jsonb_build_object('bets_won', v_won, 'bets_lost', v_lost, 'total_paid', v_paid));
  return v_match;
end;
$$;
comment on function app.declare_winner(bigint, bigint, text) is
  'Completes a live match with its winner and settles every bet set-based. Caller: API as an admin.';

-- Voids an upcoming or live match (beyond the spec): placed bets become cancelled, each stake is refunded
-- with a bet_refund ledger row, and the match is completed with result 'Match abandoned' and no winner.
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
  v_cancelled bigint;
  v_refunded bigint;
begin
  if v_before.status = 'completed' then
    raise exception using errcode = 'BT409', message = 'Match is already completed';
  end if;

  perform 1 from public.users
    where id in (select user_id from public.bets where match_id = v_before.id and status = 'placed')
    order by id
    for update;

  with cancelled as (
    update public.bets b
      set status = 'cancelled', settled_at = now()
      where b.match_id = v_before.id and b.status = 'placed'
      returning b.id, b.user_id, b.amount
  ), ledger as (
    insert into public.transactions (user_id, amount, type, status, reference_id)
    select c.user_id, c.amount, 'bet_refund', 'completed', 'BET-' || c.id
    from cancelled c
    returning id
  ), credits as (
    update public.users u
      set wallet_balance = u.wallet_balance + r.total
      from (select c.user_id, sum(c.amount) as total from cancelled c group by c.user_id) r
      where u.id = r.user_id
      returning u.id
  )
  select count(*), coalesce(sum(c.amount), 0) into v_cancelled, v_refunded from cancelled c;

  update public.matches
    set status = 'completed', winning_team_id = null, match_result = 'Match abandoned', updated_at = now()
    where id = v_before.id
    returning * into v_match;
  perform app.audit(v_admin.id, 'match.abandon', 'match', v_match.id, to_jsonb(v_before),
    to_jsonb(v_match) || jsonb_build_object('bets_cancelled', v_cancelled, 'total_refunded', v_refunded));
  return v_match;
end;
$$;
comment on function app.abandon_match(bigint) is
  'Voids an upcoming/live match: cancels its bets and refunds the stakes. Caller: API as an admin.';

/** Function privileges */

revoke execute on function
  app.notify_match_change(),
  app.place_bet(bigint, bigint, bigint, numeric, bigint),
  app.create_match(bigint, bigint, timestamptz, text, text, text),
  app.lock_match(bigint),
  app.start_match(bigint),
  app.update_live(bigint, text, text, int, numeric),
  app.declare_winner(bigint, bigint, text),
  app.abandon_match(bigint)
  from public, anon, authenticated, service_role;
grant execute on function
  app.place_bet(bigint, bigint, bigint, numeric, bigint),
  app.create_match(bigint, bigint, timestamptz, text, text, text),
  app.start_match(bigint),
  app.update_live(bigint, text, text, int, numeric),
  app.declare_winner(bigint, bigint, text),
  app.abandon_match(bigint)
  to service_role;
