-- Supabase's API roles, created only where they are missing so that any PostgreSQL >= 15 (embedded,
-- Debian, CI) looks like a Supabase project to our migrations. Hosted Supabase already has them, and
-- `supabase db push --include-roles` runs this file on every push, so it must stay idempotent.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  -- The role that pushes migrations and serves the API switches to these with `set local role`.
  execute format('grant anon, authenticated, service_role to %I', current_user);
end
$$;
