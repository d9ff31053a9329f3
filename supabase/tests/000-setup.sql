-- Test helpers, loaded once per test database before the pgTAP files (not a test itself).
--
-- pgTAP lives in its own schema `tests`, so the advisors and lint (run before this file) never see it.
-- Helpers act the way the API does:
--   tests.act_as(username)   claims of that user, role authenticated  (reads: RLS decides)
--   tests.call_as(username)  claims of that user, role service_role   (calls of app.* business functions)
--   tests.act_as_anon()      no claims, role anon                     (a visitor)
--   tests.as_webhook()       no claims, role service_role             (payment webhook, operator script)
--   tests.reset_role()       back to the session user, no claims      (setup and bookkeeping)
-- Claims and role are transaction-local (set_config(…, true)), so each test file's final rollback undoes
-- them along with its data. Every helper resets the role first, so helpers may be called while acting.
-- Money always moves through the real app.* functions, never through direct inserts.

create schema if not exists tests;
create extension if not exists pgtap with schema tests;
grant usage on schema tests to anon, authenticated, service_role;

create sequence if not exists tests.ref_seq;
grant usage on sequence tests.ref_seq to anon, authenticated, service_role;

create or replace function tests.reset_role()
returns void
language plpgsql
as $$
begin
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claims', '', true);
end;
$$;

-- Claims for a user, as the API sets them from the session it resolved.
create or replace function tests.set_claims(p_username text)
returns bigint
language plpgsql
as $$
declare
  v_id bigint;
  v_role text;
begin
  perform tests.reset_role();
  select id, role into v_id, v_role from public.users where lower(username) = lower(p_username);
  if v_id is null then
    raise exception 'tests: no user named %', p_username;
  end if;
  perform set_config('request.jwt.claims',
    json_build_object('role', 'authenticated', 'user_id', v_id, 'app_role', v_role)::text, true);
  return v_id;
end;
$$;

create or replace function tests.act_as(p_username text)
returns void
language plpgsql
as $$
begin
  perform tests.set_claims(p_username);
  perform set_config('role', 'authenticated', true);
end;
$$;

create or replace function tests.call_as(p_username text)
returns void
language plpgsql
as $$
begin
  perform tests.set_claims(p_username);
  perform set_config('role', 'service_role', true);
end;
$$;

create or replace function tests.act_as_anon()
returns void
language plpgsql
as $$
begin
  perform tests.reset_role();
  perform set_config('role', 'anon', true);
end;
$$;

create or replace function tests.as_webhook()
returns void
language plpgsql
as $$
begin
  perform tests.reset_role();
  perform set_config('role', 'service_role', true);
end;
$$;

-- The id of a user by username (resets the role: call it outside "acting" sections or in setup).
create or replace function tests.uid(p_username text)
returns bigint
language sql
stable
as $$
  select id from public.users where lower(username) = lower(p_username)
$$;

-- A unique deposit reference in the client's format REF-{digits}-{4 A-Z}.
create or replace function tests.new_ref()
returns text
language sql
as $$
  select 'REF-' || (extract(epoch from clock_timestamp())::bigint * 1000 + nextval('tests.ref_seq')) || '-TEST'
$$;

-- Deposits p_amount (500..100000) for a user through request_deposit + the gateway webhook.
-- Returns the completed transaction id. Leaves no claims and the session role.
create or replace function tests.deposit(p_username text, p_amount bigint)
returns bigint
language plpgsql
as $$
declare
  v_ref text := tests.new_ref();
  v_tx public.transactions;
begin
  perform tests.call_as(p_username);
  perform app.request_deposit(p_amount, 'upi', v_ref);
  perform tests.as_webhook();
  v_tx := app.complete_deposit(v_ref, p_amount, 'success', 'GW-' || v_ref);
  perform tests.reset_role();
  return v_tx.id;
end;
$$;

-- Registers a player and funds the wallet with completed deposits (chunks of at most 100000; a balance
-- between 1 and 499 is not reachable by deposits and raises). Returns the user id.
create or replace function tests.create_user(
  p_username text, p_balance bigint default 0, p_referral_code text default null
)
returns bigint
language plpgsql
as $$
declare
  v_user public.users;
  v_left bigint := p_balance;
  v_chunk bigint;
begin
  perform tests.reset_role();
  if p_balance between 1 and 499 then
    raise exception 'tests.create_user: balance % cannot be deposited (minimum 500)', p_balance;
  end if;
  perform tests.as_webhook();
  v_user := app.register_user(p_username, 'test-hash-' || p_username, 'Player ' || p_username,
                              p_username || '@example.test', null, p_referral_code);
  perform tests.reset_role();
  while v_left > 0 loop
    v_chunk := least(v_left, 100000);
    if v_left - v_chunk between 1 and 499 then
      v_chunk := v_left - 500;
    end if;
    perform tests.deposit(p_username, v_chunk);
    v_left := v_left - v_chunk;
  end loop;
  return v_user.id;
end;
$$;

-- Creates (or promotes) an admin through the operator function. Returns the id.
create or replace function tests.create_admin(p_username text)
returns bigint
language plpgsql
as $$
declare
  v_user public.users;
begin
  perform tests.as_webhook();
  v_user := app.create_admin(p_username, 'test-hash-' || p_username, 'Admin ' || p_username,
                             p_username || '@example.test');
  perform tests.reset_role();
  return v_user.id;
end;
$$;

-- Settles every settlement run to the end in this transaction, step by step as the workers do
-- (app.settle_step) but without committing in between, as the database owner the workers connect as. Returns
-- the steps it took; leaves no claims and the session role.
create or replace function tests.settle(p_match_id bigint default null, p_batch_size int default 2000)
returns int
language plpgsql
as $$
declare
  v_steps int := 0;
begin
  perform tests.reset_role();
  while app.settle_step(p_batch_size) <> 'idle' loop
    v_steps := v_steps + 1;
  end loop;
  return v_steps;
end;
$$;

-- Creates a match in the wanted state through the admin functions (as admin tests_admin, created on
-- demand): 'upcoming', 'live' or 'completed' (won by p_team1). Returns the match id.
create or replace function tests.create_match(
  p_status text default 'upcoming', p_team1 bigint default 1, p_team2 bigint default 2
)
returns bigint
language plpgsql
as $$
declare
  v_match public.matches;
begin
  perform tests.reset_role();
  if tests.uid('tests_admin') is null then
    perform tests.create_admin('tests_admin');
  end if;
  perform tests.call_as('tests_admin');
  v_match := app.create_match(p_team1, p_team2, now() + interval '1 day', 't20', 'Test Ground', null);
  if p_status in ('live', 'completed') then
    perform app.start_match(v_match.id);
  end if;
  if p_status = 'completed' then
    perform app.declare_winner(v_match.id, p_team1, null);
    perform tests.settle(v_match.id);
  end if;
  perform tests.reset_role();
  return v_match.id;
end;
$$;

-- Current wallet balance (as the session user).
create or replace function tests.balance(p_username text)
returns bigint
language sql
stable
as $$
  select wallet_balance from public.users where lower(username) = lower(p_username)
$$;

-- Number of rows app.reconcile() reports (must be 0).
create or replace function tests.reconcile_count()
returns bigint
language sql
stable
as $$
  select count(*) from app.reconcile()
$$;

-- A stand-in for the database side of Supabase Realtime, which a plain PostgreSQL lacks: the table
-- realtime.messages that Broadcast from the database writes and whose RLS policies decide who may join (read)
-- or send on (insert) a private topic, realtime.send() and realtime.topic(), with the grants a hosted project
-- gives the API roles. Called inside a test file's transaction, so its rollback removes it; the migrations'
-- app.enable_*() functions then create the triggers and policies they create only where Realtime exists.
create or replace function tests.create_realtime_stand_in()
returns void
language plpgsql
as $$
begin
  create schema realtime;
  create table realtime.messages (
    id bigint generated always as identity primary key,
    topic text not null,
    extension text not null,
    payload jsonb,
    event text,
    private boolean default false,
    inserted_at timestamptz not null default now()
  );
  grant usage on schema realtime to anon, authenticated;
  grant select, insert on realtime.messages to anon, authenticated;
  create function realtime.topic() returns text language sql stable
    as $topic$ select nullif(current_setting('realtime.topic', true), '') $topic$;
  create function realtime.send(payload jsonb, event text, topic text, private boolean default true)
  returns void
  language sql
  as $send$
    insert into realtime.messages (payload, event, topic, private, extension)
    values (payload, event, topic, private, 'broadcast')
  $send$;
end;
$$;

-- A two-factor secret in the form the API seals one (v1.<iv>.<ciphertext>), made up from p_name: the database
-- checks the form only, since it never holds the key.
create or replace function tests.sealed(p_name text)
returns text
language sql
immutable
as $$
  select 'v1.' || left(md5(p_name), 16) || '.' || encode(sha256(convert_to(p_name, 'UTF8')), 'hex')
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;

-- The answer app.idempotency_begin replays for a user's key (the DETAIL of its BT2xx error), or null.
create or replace function tests.replayed_answer(p_username text, p_key text, p_request_hash text)
returns text
language plpgsql
as $$
declare
  v_detail text;
begin
  perform tests.call_as(p_username);
  begin
    perform app.idempotency_begin(p_key, p_request_hash);
  exception when others then
    get stacked diagnostics v_detail = pg_exception_detail;
  end;
  perform tests.reset_role();
  return v_detail;
end;
$$;
