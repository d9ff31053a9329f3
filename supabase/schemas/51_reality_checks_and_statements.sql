-- Player protection, continued (50_player_protection.sql holds deposit limits and exclusions): reality
-- checks, the deposit-limit prompt and statements.
--
--   * Reality checks: a player chooses how often the app interrupts play to say how long they have played
--     and what they have won or lost since the play session began (app.sessions.play_started_at: sign-in, or
--     the first request after 30 minutes away): every 15, 30 or 60 minutes (60 until they choose) or never.
--     The figures and the session's start come from here (app.play_session), never from the device's clock.
--   * The deposit-limit prompt: before a player's first deposit the app asks whether to set a deposit limit
--     ('Set limit' or 'Not now'). It is due while the player has neither answered it, nor requested a
--     deposit, nor ever set a limit; it is answered once (a second answer is a 409).
--   * Statements: app.statement returns a player's ledger between two dates as CSV lines with the running
--     balance of completed rows, in chunks the API streams.
--
-- Dates in statements are India Standard Time (Asia/Kolkata), the product's market.

/** Functions: answers and texts */

-- A player's reality-check setting as the API answers it: {"interval_minutes": 15 | 30 | 60 | null}, the
-- newest choice, 60 before any.
create function app.reality_check_json(p_user_id bigint)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select coalesce((
    select jsonb_build_object('interval_minutes', c.interval_minutes)
    from public.protection_changes c
    where c.user_id = p_user_id and c.kind = 'reality_check'
    order by c.id desc
    limit 1), '{"interval_minutes": 60}'::jsonb)
$$;
comment on function app.reality_check_json(bigint) is
  'Internal: a player''s reality-check interval in minutes (null: off; 60 until chosen).';

-- One field of a CSV line (RFC 4180): null is empty; a text starting with = + - @ or a tab or carriage
-- return gets a leading apostrophe so spreadsheets do not run it as a formula; a field with a comma, quote or
-- line break is quoted, its quotes doubled.
create function app.csv_field(p_value text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when v is null then ''
    when v ~ '[",\r\n]' then '"' || replace(v, '"', '""') || '"'
    else v
  end
  from (select case when p_value ~ '^[=+@\t\r-]' then '''' || p_value else p_value end as v) guarded
$$;
comment on function app.csv_field(text) is 'Internal: a text as one CSV field, quoted and guarded against formula injection.';

/** Functions: reality checks and the deposit-limit prompt (API) */

-- GET /api/account/reality-check: the caller's reality-check interval.
create function app.reality_check()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select app.reality_check_json((app.caller(false)).id)
$$;
comment on function app.reality_check() is 'The caller''s reality-check interval. Caller: API.';

-- PUT /api/account/reality-check: every 15, 30 or 60 minutes, or never (null); applies at once. The same
-- choice again writes nothing.
create function app.set_reality_check(p_interval_minutes int, p_now timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(null);
begin
  if p_interval_minutes is not null and p_interval_minutes not in (15, 30, 60) then
    raise exception using errcode = 'BT400', message = 'A reality check comes every 15, 30 or 60 minutes, or never';
  end if;
  if app.reality_check_json(v_user.id) is distinct from jsonb_build_object('interval_minutes', p_interval_minutes) then
    insert into public.protection_changes (user_id, changed_by, kind, interval_minutes, requested_at, effective_at)
    values (v_user.id, v_user.id, 'reality_check', p_interval_minutes, p_now, p_now);
  end if;
  return app.reality_check_json(v_user.id);
end;
$$;
comment on function app.set_reality_check(int, timestamptz) is
  'Sets the caller''s reality-check interval (15, 30, 60 minutes or null for never). Caller: API as the player.';

-- GET /api/account/play-session: the request's play session, {started_at, now, interval_minutes, staked,
-- won, net}: when it began and the server's time (the app's clock runs from these, not the device's), and
-- what the player's bets did since: staked, paid back (winnings and refunds) and the difference.
create function app.play_session()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_started_at timestamptz;
  v_staked bigint;
  v_won bigint;
begin
  select s.play_started_at into v_started_at
    from app.sessions s where s.id = app.current_session_id() and s.user_id = v_user.id;
  if not found then
    raise exception using errcode = 'BT401', message = 'Not authenticated';
  end if;
  select coalesce(-sum(t.amount) filter (where t.type = 'bet_placed'), 0),
         coalesce(sum(t.amount) filter (where t.type in ('bet_won', 'bet_refund')), 0)
    into v_staked, v_won
    from public.transactions t
    where t.user_id = v_user.id and t.type in ('bet_placed', 'bet_won', 'bet_refund') and t.created_at >= v_started_at;
  return jsonb_build_object('started_at', v_started_at, 'now', now(),
    'interval_minutes', app.reality_check_json(v_user.id) -> 'interval_minutes',
    'staked', v_staked, 'won', v_won, 'net', v_won - v_staked);
end;
$$;
comment on function app.play_session() is
  'The request''s play session: its start, the server''s time, the reality-check interval and the net result of bets since. Caller: API.';

-- POST /api/account/limit-prompt: the caller's answer to the prompt before their first deposit: a limit
-- (period and amount, set as app.set_deposit_limit sets one) or neither ('Not now'). Answered once: a
-- second answer is a 409. Answers the caller's protection after it.
create function app.answer_limit_prompt(p_period text, p_amount bigint, p_now timestamptz default now())
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.protected_player(null);
begin
  if exists (select 1 from public.protection_changes c where c.user_id = v_user.id and c.kind = 'limit_prompt') then
    raise exception using errcode = 'BT409', message = 'You have already answered the deposit limit question';
  end if;
  if (p_period is null) <> (p_amount is null) then
    raise exception using errcode = 'BT400', message = 'Choose a period and an amount for the limit';
  end if;
  if p_period is not null then
    perform app.set_deposit_limit(p_period, p_amount, v_user.id, p_now);
  end if;
  insert into public.protection_changes (user_id, changed_by, kind, period, amount, requested_at, effective_at)
  values (v_user.id, v_user.id, 'limit_prompt', p_period, p_amount, p_now, p_now);
  return app.protection_json(v_user.id, p_now);
end;
$$;
comment on function app.answer_limit_prompt(text, bigint, timestamptz) is
  'Records the caller''s one answer to the deposit-limit prompt (a limit, or none). Caller: API as the player.';

/** Functions: statements (API) */

-- GET /api/wallet/statement.csv: one chunk of a player's ledger from p_from to p_to (IST calendar days,
-- both included), in id order, as CSV lines 'date (IST),type,amount,status,reference,balance after' with
-- the running balance of completed rows. The first chunk (p_after_id null) starts from the balance before
-- p_from; each next one continues after the last id with the last balance, so the API can stream a statement
-- of any length in short transactions. The caller's own ledger, or any user's for an active admin.
create function app.statement(
  p_user_id bigint, p_from date, p_to date, p_after_id bigint default null, p_balance bigint default null,
  p_limit int default 1000
)
returns table (id bigint, balance_after bigint, line text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user_id bigint := app.readable_account(p_user_id, 'You can only view your own transactions');
  v_start timestamptz;
  v_end timestamptz;
  v_opening bigint := p_balance;
begin
  if p_from is null or p_to is null or p_from > p_to then
    raise exception using errcode = 'BT400', message = 'The start date must be on or before the end date';
  end if;
  if (p_after_id is null) <> (p_balance is null) or p_limit is null or p_limit < 1 then
    raise exception using errcode = 'BT400', message = 'Invalid statement chunk';
  end if;
  v_start := p_from::timestamp at time zone 'Asia/Kolkata';
  v_end := (p_to + 1)::timestamp at time zone 'Asia/Kolkata';
  if p_after_id is null then
    select coalesce(sum(t.amount), 0) into v_opening
      from public.transactions t
      where t.user_id = v_user_id and t.status = 'completed' and t.created_at < v_start;
  end if;
  return query
    select r.id, r.balance, concat_ws(',',
             app.csv_field(to_char(r.created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS')),
             app.csv_field(r.type), r.amount::text, app.csv_field(r.status), app.csv_field(r.reference_id),
             r.balance::text)
    from (
      select c.*,
             (v_opening + sum(case when c.status = 'completed' then c.amount else 0 end) over (order by c.id))::bigint as balance
      from (
        select t.id, t.created_at, t.type::text, t.amount, t.status::text, t.reference_id::text
        from public.transactions t
        where t.user_id = v_user_id and t.created_at >= v_start and t.created_at < v_end
          and t.id > coalesce(p_after_id, 0)
        order by t.id
        limit p_limit
      ) c
    ) r
    order by r.id;
end;
$$;
comment on function app.statement(bigint, date, date, bigint, bigint, int) is
  'One chunk of a player''s ledger as CSV lines with the running balance (own, or any for an admin). Caller: API.';

/** Function privileges */

revoke execute on function
  app.csv_field(text),
  app.statement(bigint, date, date, bigint, bigint, int),
  app.reality_check_json(bigint),
  app.reality_check(),
  app.set_reality_check(int, timestamptz),
  app.play_session(),
  app.answer_limit_prompt(text, bigint, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function
  app.statement(bigint, date, date, bigint, bigint, int),
  app.reality_check(),
  app.set_reality_check(int, timestamptz),
  app.play_session(),
  app.answer_limit_prompt(text, bigint, timestamptz)
  to service_role;
