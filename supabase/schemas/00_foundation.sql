-- Foundation: the private schema `app`, the extensions schema, operator settings and the ten teams every
-- other area builds on.
--
-- supabase/schemas holds the CURRENT definition of every database object, one file per area, applied in the
-- order of `[db.migrations] schema_paths` in supabase/config.toml. supabase/migrations is the history that
-- deploys. A change goes into a new migration AND into the schema file of its area, in one commit:
-- tests/db/schema-drift.test.ts builds a database from each and fails on any difference.
--
-- Conventions of every area:
--   * lowercase SQL, sections marked with /** … */ banners, a comment on every function saying what it does,
--     who may call it and why;
--   * RLS enabled on every table in `public`, read policies only (one per operation per role): no API role
--     may insert, update or delete, so every write goes through an `app` function;
--   * business rules live in `app` functions; SECURITY DEFINER ones pin `search_path = ''`, re-check the
--     caller inside and are executable by `service_role` only (the API), never through PostgREST;
--   * errors: `raise exception using errcode = 'BT4xx'`, the last three digits being the HTTP status the API
--     answers (BT400 validation, BT401 no caller, BT403 forbidden, BT404 not found, BT409 conflict, BT429 rate
--     limited); messages are the texts players and admins read.
--
-- Advisor note (INFO 0005 unused_index): on a new database every non-unique index has idx_scan = 0, so the
-- advisor lists them as "unused". Each index exists for a foreign key, an RLS filter or a lookup named in its
-- comment; traffic uses them.

/** Schemas */

-- `app` holds what must never be reachable through PostgREST: credentials, sessions, settings and the
-- functions that move money. `authenticated` needs usage to evaluate RLS helper functions, `anon` to build
-- the public match answer (app.match_json), `service_role` to call the business functions.
create schema if not exists app;
comment on schema app is 'Private schema: credentials, sessions, settings and all business functions.';
revoke all on schema app from public;
grant usage on schema app to anon, authenticated, service_role;

grant usage on schema public to anon, authenticated, service_role;

/** Extensions */

-- On Supabase extensions live in schema `extensions` (advisor lint 0014 extension_in_public); vanilla
-- PostgreSQL gets the schema here. Where pg_trgm already exists in another schema, that one is used (the
-- users search index names the schema it finds).
create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;

/** Tables */

-- Operator-tunable settings (jsonb values). Each area inserts its own rows: the referral bonus (wallet), the
-- house's stake, liability and closing rules (house risk).
create table app.settings (
  key varchar(100) primary key,
  value jsonb not null,
  description text
);
comment on table app.settings is 'Business settings, e.g. referral_bonus_amount.';
revoke all on app.settings from public, anon, authenticated, service_role;

-- The settings the money functions decide by (the house's limits and closing rules, the referral cap, the
-- admin credit rules, the price of a new match), typed: one read of app.settings gives a function all of them. Their rows are
-- inserted by the areas that use them.
create type app.risk_settings as (
  max_stake_per_bet bigint,
  max_stake_per_player_match bigint,
  max_liability_per_match bigint,
  betting_close_over numeric(3, 1),
  betting_pre_match_only boolean,
  live_feed_stale_seconds int,
  referral_bonuses_per_month int,
  adjustment_review_amount bigint,
  admin_credit_per_day bigint,
  default_odds numeric(5, 2)
);
comment on type app.risk_settings is 'The house-risk settings of app.settings, typed.';

-- The typed settings, read by the rules with their callers' rights. PL/pgSQL keeps its plan for the session
-- (a SQL function with a pinned search_path is planned on every call, which every bet would pay).
create function app.current_risk_settings()
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
revoke execute on function app.current_risk_settings() from public, anon, authenticated, service_role;

-- Teams are reference data: the ten fixed teams of the league. Ids are fixed because the admin screens fall
-- back to the same table by id when a match carries no team objects.
create table public.teams (
  id bigint generated always as identity primary key,
  name varchar(255) not null check (length(trim(name)) > 0),
  short_name varchar(50) not null check (length(trim(short_name)) > 0),
  logo_url varchar(255),
  constraint teams_name_key unique (name),
  constraint teams_short_name_key unique (short_name)
);
comment on table public.teams is 'Cricket teams: the ten teams of the league (reference data).';

/** Policies */

alter table public.teams enable row level security;

create policy "Teams are readable by visitors"
  on public.teams for select to anon using (true);
create policy "Teams are readable by signed-in users"
  on public.teams for select to authenticated using (true);

/** Privileges */

-- Reads only. Hosted Supabase's default privileges grant writes on new public tables as well: they are
-- taken away.
grant select on public.teams to anon, authenticated, service_role;
revoke insert, update, delete, truncate, references, trigger on public.teams from anon, authenticated;

/** Reference data */

insert into public.teams (id, name, short_name) overriding system value values
  (1, 'Mumbai Indians', 'MI'),
  (2, 'Chennai Super Kings', 'CSK'),
  (3, 'Royal Challengers Bangalore', 'RCB'),
  (4, 'Kolkata Knight Riders', 'KKR'),
  (5, 'Delhi Capitals', 'DC'),
  (6, 'Punjab Kings', 'PBKS'),
  (7, 'Rajasthan Royals', 'RR'),
  (8, 'Sunrisers Hyderabad', 'SRH'),
  (9, 'Gujarat Titans', 'GT'),
  (10, 'Lucknow Super Giants', 'LSG');

select setval(pg_get_serial_sequence('public.teams', 'id'), 10);
