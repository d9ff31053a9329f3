-- Foundation: the private schema `app` and the reference data every other migration builds on.
--
-- Conventions for all migrations:
--   * lowercase SQL, one file per area, sections marked with /** … */ banners;
--   * RLS enabled on every table in `public`, one policy per operation per role;
--   * business rules live in SECURITY DEFINER functions in `app`, executable by `service_role` only.

/** Schemas */

-- `app` holds what must never be reachable through PostgREST: credentials, sessions, settings and the
-- functions that move money. `authenticated` needs usage only to evaluate RLS helper functions.
create schema if not exists app;
comment on schema app is 'Private schema: credentials, sessions, settings and all business functions.';
revoke all on schema app from public;
grant usage on schema app to authenticated, service_role;

grant usage on schema public to anon, authenticated, service_role;

/** Tables */

-- Teams are reference data: the ten fixed teams of the spec (§3.8). Ids are fixed because the admin
-- screens fall back to the same table by id when a match carries no team objects.
create table public.teams (
  id bigint generated always as identity primary key,
  name varchar(255) not null check (length(trim(name)) > 0),
  short_name varchar(50) not null check (length(trim(short_name)) > 0),
  logo_url varchar(255),
  constraint teams_name_key unique (name),
  constraint teams_short_name_key unique (short_name)
);
comment on table public.teams is 'Cricket teams (reference data, spec §3.4 and §3.8).';

/** Policies */

alter table public.teams enable row level security;

create policy "Teams are readable by visitors"
  on public.teams for select to anon using (true);
create policy "Teams are readable by signed-in users"
  on public.teams for select to authenticated using (true);

grant select on public.teams to anon, authenticated, service_role;

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
