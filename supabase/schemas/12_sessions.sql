-- Sessions: a signed-in browser's session (the hash of its cookie token), how long it lasts, the request's
-- claims (app.authenticate), signing out, and the changes that end a user's other sessions.

/** Tables */

-- Sessions: the SHA-256 (hex) of the cookie token, never the token itself, which never leaves the database
-- either: the user sees and ends a session by its public id. A session ends at expires_at unless used: the
-- idle timeout after its last use, never later than 30 days after sign-in (app.session_expiry).
create table app.sessions (
  token_hash varchar(128) primary key,
  user_id bigint not null references public.users (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  id bigint generated always as identity,
  -- the browser it was opened from and the address it was last used from
  user_agent varchar(512),
  ip varchar(64),
  -- when the current play session began: at sign-in, or again after 30 minutes without a request (the
  -- reality checks count from here; app.authenticate moves it)
  play_started_at timestamptz not null default now(),
  constraint sessions_id_key unique (id)
);
comment on table app.sessions is
  'Signed-in sessions: hash of the cookie token (never shown), a public id, browser, last address, end (expires_at).';
comment on column app.sessions.expires_at is
  'When the session ends unless used: the idle timeout after last_seen_at, never later than 30 days after created_at.';
comment on column app.sessions.play_started_at is
  'When the current play session began: at sign-in, or at the first request after 30 minutes without one.';
-- foreign key; also "delete all sessions of a banned user"
create index sessions_user_id_idx on app.sessions (user_id);
-- purge of expired sessions
create index sessions_expires_at_idx on app.sessions (expires_at);

/** Privileges */

-- Private tables: no API role reads or writes them; the app.* functions below do.
revoke all on app.sessions
  from public, anon, authenticated, service_role;

/** Functions: sessions */

-- The request's session id from the claims app.authenticate set (null outside a signed-in request).
create function app.current_session_id()
returns bigint
language plpgsql
stable
set search_path = ''
as $$
begin
  return nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'session_id', '')::bigint;
end;
$$;
comment on function app.current_session_id() is 'Internal: the id of the session of the current request, or null.';

-- The latest moment a session begun at p_created_at can last, however often it is used: 30 days.
create function app.session_ends_by(p_created_at timestamptz)
returns timestamptz
language plpgsql
immutable
set search_path = ''
as $$
begin
  return p_created_at + interval '30 days';
end;
$$;
comment on function app.session_ends_by(timestamptz) is 'Internal: the absolute end of a session (30 days after sign-in).';

-- When a session used at p_now ends unless used again: 30 minutes later for an admin (whose session can
-- move money for others), 7 days later for a player, and never after app.session_ends_by.
create function app.session_expiry(p_role text, p_created_at timestamptz, p_now timestamptz)
returns timestamptz
language plpgsql
immutable
set search_path = ''
as $$
begin
  return least(
    app.session_ends_by(p_created_at),
    p_now + case when p_role = 'admin' then interval '30 minutes' else interval '7 days' end);
end;
$$;
comment on function app.session_expiry(text, timestamptz, timestamptz) is
  'Internal: idle timeout (admin 30 minutes, player 7 days) capped by the 30-day lifetime.';

-- Ends every session of a user but the current request's: the account changed, so whoever else holds one
-- must sign in again under the new rules.
create function app.end_other_sessions(p_user_id bigint)
returns void
language plpgsql
set search_path = ''
as $$
begin
  delete from app.sessions
    where user_id = p_user_id and id is distinct from app.current_session_id();
end;
$$;
comment on function app.end_other_sessions(bigint) is 'Internal: delete a user''s sessions except the current one.';

create function app.end_sessions_on_user_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform app.end_other_sessions(new.id);
  return null;
end;
$$;
comment on function app.end_sessions_on_user_change() is 'Trigger: a change of role or status ends the user''s other sessions.';

create trigger users_end_sessions
  after update of role, status on public.users
  for each row when (old.role is distinct from new.role or old.status is distinct from new.status)
  execute function app.end_sessions_on_user_change();

create function app.end_sessions_on_credentials_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform app.end_other_sessions(new.user_id);
  return null;
end;
$$;
comment on function app.end_sessions_on_credentials_change() is
  'Trigger: a new password or second factor ends the user''s other sessions.';

-- A new second factor is a new totp_enrolled_at: sealing a secret kept from before in clear changes the
-- column but not the factor, and ends nothing.
create trigger credentials_end_sessions
  after update of password_hash, totp_enrolled_at on app.credentials
  for each row when (old.password_hash is distinct from new.password_hash
                     or old.totp_enrolled_at is distinct from new.totp_enrolled_at)
  execute function app.end_sessions_on_credentials_change();

-- Every session that ends, however it ends (sign-out, sign-out everywhere, a ban or any change of status or
-- role, a new password or second factor, the purge of expired ones), is announced on `sessions_ended` with
-- the ids of the sessions, so the server processes close the live streams they opened at once (they hear it
-- on the LISTEN connection they hold anyway). One notification per 500 sessions keeps each well under
-- PostgreSQL's 8000-byte limit; it is sent when the deleting transaction commits.
create function app.announce_ended_sessions()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('sessions_ended', part.ids::text)
  from (select jsonb_agg(e.id) as ids
        from (select id, (row_number() over (order by id) - 1) / 500 as chunk from ended) e
        group by e.chunk) part;
  return null;
end;
$$;
comment on function app.announce_ended_sessions() is
  'Trigger: announces the ids of ended (deleted) sessions on sessions_ended, 500 per notification.';

create trigger sessions_announce_end
  after delete on app.sessions
  referencing old table as ended
  for each statement
  execute function app.announce_ended_sessions();

-- Of the sessions p_ids (those with a live stream open in a server process), the ones that have ended:
-- deleted, or past their end. A server process asks when its LISTEN was lost (announcements may have gone
-- unheard) and every minute (a session may simply run out of time). Caller: the server processes (the
-- database owner); no API role.
create function app.ended_sessions(p_ids bigint[])
returns setof bigint
language sql
stable
set search_path = ''
as $$
  select i.id from unnest(p_ids) i(id)
  where not exists (select 1 from app.sessions s where s.id = i.id and s.expires_at > now())
$$;
comment on function app.ended_sessions(bigint[]) is
  'Of the given session ids, those that have ended (deleted or expired). Caller: the server processes (owner).';

-- Stores a new session (hash of the cookie token) with the browser and address it was opened from, and
-- remembers the browser's device cookie id as one that has signed in as this user (a referral between two
-- accounts of that browser is then never paid: app.note_referral_links). Refuses banned users
-- (403). Returns the latest moment the session can last (the cookie's expiry). Purges expired sessions
-- and devices whose cookie has expired (sign-ins are rare enough for this to be cheap).
create function app.create_session(
  p_user_id bigint, p_token_hash text, p_user_agent text default null, p_ip text default null, p_device text default null
)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users;
  v_session app.sessions;
begin
  if p_token_hash is null or length(p_token_hash) < 32 or length(p_token_hash) > 128 then
    raise exception using errcode = 'BT400', message = 'Invalid session token';
  end if;
  select * into v_user from public.users where id = p_user_id;
  if not found then
    raise exception using errcode = 'BT404', message = 'User not found';
  end if;
  if v_user.status = 'banned' then
    raise exception using errcode = 'BT403', message = 'Your account is banned';
  end if;
  delete from app.sessions where expires_at <= now();
  insert into app.sessions (token_hash, user_id, expires_at, user_agent, ip)
  values (p_token_hash, v_user.id, app.session_expiry(v_user.role, now(), now()), left(p_user_agent, 512), left(p_ip, 64))
  returning * into v_session;
  if p_device is not null then
    delete from app.user_devices where last_sign_in_at < now() - interval '400 days';
    insert into app.user_devices (user_id, device_id) values (v_user.id, left(p_device, 64))
      on conflict (user_id, device_id) do update set last_sign_in_at = now();
    perform app.note_referral_links(v_user.id, left(p_device, 64));
  end if;
  return app.session_ends_by(v_session.created_at);
end;
$$;
comment on function app.create_session(bigint, text, text, text, text) is
  'Creates a session for a non-banned user, remembers its device; returns its latest end. Caller: API.';

-- Resolves the session — unexpired, its user not banned — and sets the transaction-local claims that RLS
-- policies and business functions read (with the session's id, so a change of the account can spare the
-- session that made it). p_access is what the route needs:
--   'user'  — any signed-in user, else 401 'Not authenticated';
--   'admin' — an active admin according to public.users, else 401 / 403 'Admin access required'; with
--             p_require_mfa (ADMIN_MFA=required) also one with a second factor, else 403.
-- The claims say app_role 'admin' only for an active admin. The session is touched at most once a minute
-- or when the address changes (no write per request): last_seen_at, the address, and its end moves to
-- the idle timeout from now (app.session_expiry); after 30 minutes without a request a new play session
-- begins. Returns the caller (for the API's request log).
create function app.authenticate(
  p_token_hash text, p_access text, p_ip text default null, p_require_mfa boolean default false
)
returns app.request_caller
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_caller app.request_caller;
  v_session_id bigint;
  v_last_seen timestamptz;
  v_ip text;
begin
  if p_access is null or p_access not in ('user', 'admin') then
    raise exception using errcode = 'BT400', message = 'Unknown access level';
  end if;
  select s.id, s.user_id, u.role, u.status, s.last_seen_at, s.ip
    into v_session_id, v_caller.user_id, v_caller.role, v_caller.status, v_last_seen, v_ip
    from app.sessions s
    join public.users u on u.id = s.user_id
    where s.token_hash = p_token_hash and s.expires_at > now() and u.status <> 'banned';
  if v_caller.user_id is null then
    raise exception using errcode = 'BT401', message = 'Not authenticated';
  end if;
  if v_last_seen < now() - interval '1 minute' or (p_ip is not null and left(p_ip, 64) is distinct from v_ip) then
    update app.sessions
      set last_seen_at = now(), ip = coalesce(left(p_ip, 64), ip),
          expires_at = app.session_expiry(v_caller.role, created_at, now()),
          -- back after 30 minutes away: a new play session (the reality checks count from here)
          play_started_at = case when last_seen_at <= now() - interval '30 minutes' then now() else play_started_at end
      where token_hash = p_token_hash;
  end if;
  if p_access = 'admin' and (v_caller.role <> 'admin' or v_caller.status <> 'active') then
    raise exception using errcode = 'BT403', message = 'Admin access required';
  end if;
  -- the credentials are read only for an admin route that needs a second factor (as one condition with the
  -- access level, the check was planned afresh on every request)
  if p_access = 'admin' and p_require_mfa then
    if not exists (select 1 from app.credentials c where c.user_id = v_caller.user_id and c.totp_secret is not null) then
      raise exception using errcode = 'BT403',
        message = 'Turn on two-factor sign-in on your Security screen to use the admin pages';
    end if;
  end if;
  -- app_role admin lets RLS show everything: only while the admin is active.
  perform set_config('request.jwt.claims', json_build_object(
    'role', 'authenticated', 'user_id', v_caller.user_id, 'session_id', v_session_id,
    'app_role', case when v_caller.role = 'admin' and v_caller.status = 'active' then 'admin' else 'user' end
  )::text, true);
  return v_caller;
end;
$$;
comment on function app.authenticate(text, text, text, boolean) is
  'Resolves a session token hash, checks the access a route needs and sets request.jwt.claims. Caller: API.';

-- Deletes one session (logout). Unknown hashes are ignored.
create function app.delete_session(p_token_hash text)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from app.sessions where token_hash = p_token_hash
$$;
comment on function app.delete_session(text) is 'Deletes a session (logout). Caller: API.';

-- The caller's sessions that are still open, most recently used first, as the API answers them: the
-- public id, browser, address, times, and which one is this request's. Never the token's hash.
create function app.account_sessions()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', s.id, 'user_agent', s.user_agent, 'ip', s.ip, 'created_at', s.created_at,
             'last_seen_at', s.last_seen_at, 'expires_at', s.expires_at,
             'current', s.id = app.current_session_id())
           order by s.last_seen_at desc, s.id desc)
    from app.sessions s
    where s.user_id = v_user.id and s.expires_at > now()), '[]'::jsonb);
end;
$$;
comment on function app.account_sessions() is 'The caller''s open sessions (no token hashes). Caller: API.';

-- Ends one of the caller's sessions by its public id; 404 'Session not found' for anyone else's or an
-- unknown id. Returns whether it was the request's own session (the API then clears its cookie).
create function app.end_session(p_id bigint)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  delete from app.sessions where id = p_id and user_id = v_user.id;
  if not found then
    raise exception using errcode = 'BT404', message = 'Session not found';
  end if;
  return p_id = app.current_session_id();
end;
$$;
comment on function app.end_session(bigint) is 'Ends one of the caller''s sessions by id. Caller: API.';

-- Ends every session of the caller, this one included ("Sign out everywhere").
create function app.end_all_sessions()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  delete from app.sessions where user_id = v_user.id;
end;
$$;
comment on function app.end_all_sessions() is 'Ends every session of the caller. Caller: API.';

-- Internal: gives the request's session a new token (p_token_hash, the hash of a token the API made) after a
-- change of the account's password or second factor. The old session ends like every other one of the user
-- (a copy of its cookie stops working with them, and a live stream opened with it closes); the new one keeps
-- the browser, the address and the play session, and lasts as a fresh sign-in. Returns its latest end (the
-- cookie's expiry).
create function app.renew_session(p_token_hash text)
returns timestamptz
language plpgsql
set search_path = ''
as $$
declare
  v_old app.sessions;
  v_new app.sessions;
begin
  if p_token_hash is null or length(p_token_hash) < 32 or length(p_token_hash) > 128 then
    raise exception using errcode = 'BT400', message = 'Invalid session token';
  end if;
  delete from app.sessions where id = app.current_session_id() returning * into v_old;
  if not found then
    raise exception using errcode = 'BT401', message = 'Not authenticated';
  end if;
  insert into app.sessions (token_hash, user_id, expires_at, user_agent, ip, play_started_at)
  select p_token_hash, u.id, app.session_expiry(u.role, now(), now()), v_old.user_agent, v_old.ip, v_old.play_started_at
    from public.users u where u.id = v_old.user_id
  returning * into v_new;
  return app.session_ends_by(v_new.created_at);
end;
$$;
comment on function app.renew_session(text) is
  'Internal: replaces the request''s session with one of a new token (same browser and play session); its latest end.';

/** Function privileges */

-- Functions get EXECUTE for PUBLIC by default: take it away, then grant per function.
revoke execute on function
  app.current_session_id(),
  app.session_ends_by(timestamptz),
  app.session_expiry(text, timestamptz, timestamptz),
  app.end_other_sessions(bigint),
  app.end_sessions_on_user_change(),
  app.end_sessions_on_credentials_change(),
  app.announce_ended_sessions(),
  app.ended_sessions(bigint[]),
  app.create_session(bigint, text, text, text, text),
  app.authenticate(text, text, text, boolean),
  app.delete_session(text),
  app.account_sessions(),
  app.end_session(bigint),
  app.end_all_sessions(),
  app.renew_session(text)
  from public, anon, authenticated, service_role;
-- Business functions: the API only, as service_role (never anon/authenticated: nothing reachable through
-- PostgREST may move money or read credentials).
grant execute on function
  app.create_session(bigint, text, text, text, text),
  app.authenticate(text, text, text, boolean),
  app.delete_session(text),
  app.account_sessions(),
  app.end_session(bigint),
  app.end_all_sessions()
  to service_role;
