-- The request path in one round trip: what the API needs from the database for a
-- request is pipelined on one connection and answered together:
--
--   begin;
--   select a.user_id, a.role, a.status, set_config('role', 'authenticated' | 'service_role', true)
--     from app.authenticate(<sha-256 of the session cookie>, 'user' | 'admin') a;   -- claims set inside
--   <the route's statement, which returns the JSON the API answers>;
--   commit;
--
-- (public routes replace the second statement by `select set_config('role', 'anon' | 'service_role', true)`).
-- So the answers are built here: app.match_json, app.bet_json and app.user_json are the one place of each
-- shape, used by the API's reads, by the writes (a business function's row is turned into its answer in the
-- same statement, no follow-up read) and by the live-update trigger (the event carries the match itself).
--
-- Matches get a version (1 on insert, +1 on every change, under the row lock): clients keep the newest
-- state they have seen of each match, whatever order events arrive in.

/** Schemas */

-- anon evaluates app.match_json in anonymous match reads; it may execute no other function of app (every
-- migration revokes EXECUTE per function; supabase/tests/01-schema.test.sql checks the whole schema).
grant usage on schema app to anon;

/** Tables */

alter table public.matches add column version bigint not null default 1 check (version >= 1);
comment on column public.matches.version is 'Starts at 1 and grows by one with every change of the row.';

/** Types */

create type app.request_caller as (user_id bigint, role text, status text);
comment on type app.request_caller is 'The caller of a request, as app.authenticate resolved it.';

/** Functions: caller helpers */

-- Functions on the request path are PL/pgSQL, not SQL: PostgreSQL 15 cannot inline a SQL function whose
-- search_path is pinned (every function here pins it), and then plans its body again in every statement
-- that calls it; PL/pgSQL keeps its plans for the session. Measured with pgbench on the bet statement,
-- app.bet_json alone went from a quarter of a bet's database time to a tenth. Same rules as before
-- (20261121000100_identity.sql), same privileges (create or replace keeps them).
create or replace function app.current_user_id()
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  return nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'user_id', '')::bigint;
end;
$$;

create or replace function app.is_admin()
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'app_role' = 'admin', false);
end;
$$;

/** Functions: answer shapes */

-- The pending withdrawals of a user as a positive sum (0 when none). Runs with the caller's rights: inside
-- the money functions as their owner, in app.user_json under RLS (a player sees only their own rows).
create function app.pending_withdrawals(p_user_id bigint)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select coalesce(-sum(t.amount), 0)::bigint
    from public.transactions t
    where t.user_id = p_user_id and t.type = 'withdrawal' and t.status = 'pending'
  );
end;
$$;
comment on function app.pending_withdrawals(bigint) is
  'Sum of a user''s pending withdrawals (positive). Callable by authenticated (RLS applies) and service_role.';

-- Redefined on app.pending_withdrawals, so "available" is computed in one place.
create or replace function app.available_balance(p_user_id bigint)
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select u.wallet_balance - app.pending_withdrawals(u.id) from public.users u where u.id = p_user_id
  );
end;
$$;

-- A user as the API answers it: the row (spec §3.1 minus the password, which lives in app.credentials)
-- plus what the player may spend now (available_balance) and what waits for approval (pending_withdrawals).
-- Built from the row given (a business function's fresh result included), not re-read.
create function app.user_json(p_user public.users)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select to_jsonb(p_user) || jsonb_build_object(
      'available_balance', p_user.wallet_balance - w.pending,
      'pending_withdrawals', w.pending)
    from (select app.pending_withdrawals(p_user.id) as pending) w
  );
end;
$$;
comment on function app.user_json(public.users) is
  'The API''s user answer: the row plus available_balance and pending_withdrawals. Callable by authenticated, service_role.';

-- A match as the API answers it and as live events carry it: the row with its two teams and
-- additionalDetails.status (spec §3.5: the result once completed). Public data only.
create function app.match_json(p_match public.matches)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (
    select to_jsonb(p_match) || jsonb_build_object(
      'team1', (select to_jsonb(t) from public.teams t where t.id = p_match.team1_id),
      'team2', (select to_jsonb(t) from public.teams t where t.id = p_match.team2_id),
      'additionalDetails', jsonb_build_object('status', p_match.match_result))
  );
end;
$$;
comment on function app.match_json(public.matches) is
  'The API''s match answer (with team1, team2, additionalDetails). Callable by anon, authenticated, service_role.';

-- A bet as the API answers it: the row with its match (as app.match_json) and the team backed (spec §3.6).
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

/** Functions: authentication */

-- Resolves the session — unexpired, its user not banned — and sets the transaction-local claims that RLS
-- policies and business functions read. p_access is what the route needs:
--   'user'  — any signed-in user, else 401 'Not authenticated';
--   'admin' — an active admin according to public.users, else 401 / 403 'Admin access required'.
-- The claims say app_role 'admin' only for an active admin. last_seen_at is touched at most once a minute
-- (no write per request); expired rows are purged when sessions are created (app.create_session). Returns
-- the caller (for the API's request log). The claims survive the function's own search_path setting:
-- set_config(…, true) inside a function lasts until the end of the transaction. It replaces
-- app.resolve_session, a set-returning call of three statements: one lookup costs a third as much on every
-- signed-in request (pgbench on GET /api/user's statements: 5,400 → 7,100 per second).
create function app.authenticate(p_token_hash text, p_access text)
returns app.request_caller
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_caller app.request_caller;
  v_last_seen timestamptz;
begin
  if p_access is null or p_access not in ('user', 'admin') then
    raise exception using errcode = 'BT400', message = 'Unknown access level';
  end if;
  select s.user_id, u.role, u.status, s.last_seen_at
    into v_caller.user_id, v_caller.role, v_caller.status, v_last_seen
    from app.sessions s
    join public.users u on u.id = s.user_id
    where s.token_hash = p_token_hash and s.expires_at > now() and u.status <> 'banned';
  if v_caller.user_id is null then
    raise exception using errcode = 'BT401', message = 'Not authenticated';
  end if;
  if v_last_seen < now() - interval '1 minute' then
    update app.sessions set last_seen_at = now() where token_hash = p_token_hash;
  end if;
  if p_access = 'admin' and (v_caller.role <> 'admin' or v_caller.status <> 'active') then
    raise exception using errcode = 'BT403', message = 'Admin access required';
  end if;
  -- app_role admin lets RLS show everything: only while the admin is active.
  perform set_config('request.jwt.claims', json_build_object(
    'role', 'authenticated', 'user_id', v_caller.user_id,
    'app_role', case when v_caller.role = 'admin' and v_caller.status = 'active' then 'admin' else 'user' end
  )::text, true);
  return v_caller;
end;
$$;
comment on function app.authenticate(text, text) is
  'Resolves a session token hash, checks the access a route needs and sets request.jwt.claims. Caller: API.';

/** Functions: idempotency in the same round trip */

-- Starts an idempotent request (POST /api/bets, /api/wallet/withdraw) for the caller's key, in the request's
-- transaction and before its business function: takes a transaction-level advisory lock on (user, key),
-- so concurrent requests with one key run one after the other. A key already used for another request is
-- a 409. A key already answered raises SQLSTATE 'BT' + the saved status (e.g. BT201) with the saved answer
-- as DETAIL: the request's transaction ends there (nothing else runs, nothing moves) and the API replays
-- the answer — so a retry costs one round trip, like the first attempt.
create function app.idempotency_begin(p_key text, p_request_hash text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
  v_row app.idempotency_keys;
begin
  if p_key is null or length(p_key) = 0 then
    raise exception using errcode = 'BT400', message = 'Idempotency key is required';
  end if;
  perform app.check_length(p_key, 'Idempotency key', 255);
  perform pg_advisory_xact_lock(hashtextextended(v_user.id::text || ':' || p_key, 0));
  delete from app.idempotency_keys k
    where k.user_id = v_user.id and k.key = p_key and k.created_at < now() - interval '24 hours';
  select * into v_row from app.idempotency_keys k where k.user_id = v_user.id and k.key = p_key;
  if not found then
    return;
  end if;
  if v_row.request_hash <> p_request_hash then
    raise exception using errcode = 'BT409', message = 'Idempotency key reused with a different request';
  end if;
  raise exception using errcode = 'BT' || v_row.response_status, message = 'Idempotent replay',
    detail = v_row.response_body::text;
end;
$$;
comment on function app.idempotency_begin(text, text) is
  'Serializes on the caller''s idempotency key; raises BT<status> with the saved answer as DETAIL for a replay. Caller: API.';

drop function app.idempotency_lookup(text, text);

/** Functions: live updates */

-- Every change of a match grows its version by one. The row is locked by the update, so versions follow
-- the order in which the changes commit.
create function app.bump_match_version()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.version := old.version + 1;
  return new;
end;
$$;
comment on function app.bump_match_version() is 'Trigger: version + 1 on every update of a match.';

create trigger matches_version
  before update on public.matches
  for each row execute function app.bump_match_version();

-- The notification now carries the public match itself, as the API answers it (about 700 bytes, far
-- below pg_notify's 8000), so no listener has to read it back.
create or replace function app.notify_match_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('match_updates', app.match_json(new)::text);
  return null;
end;
$$;
comment on function app.notify_match_change() is
  'Trigger: pg_notify(match_updates, <the match as the API answers it>) on every match insert/update.';

/** Function privileges */

revoke execute on function
  app.pending_withdrawals(bigint),
  app.user_json(public.users),
  app.match_json(public.matches),
  app.bet_json(public.bets),
  app.authenticate(text, text),
  app.idempotency_begin(text, text),
  app.bump_match_version()
  from public, anon, authenticated, service_role;
grant execute on function app.match_json(public.matches) to anon, authenticated, service_role;
grant execute on function app.pending_withdrawals(bigint), app.user_json(public.users), app.bet_json(public.bets)
  to authenticated, service_role;
grant execute on function app.authenticate(text, text), app.idempotency_begin(text, text) to service_role;
drop function app.resolve_session(text);
