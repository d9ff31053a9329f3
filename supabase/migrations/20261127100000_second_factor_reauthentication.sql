-- A second factor a stolen session cannot take, and a new session token after a change of the account's
-- password or second factor.
--
--   * Setting up two-factor sign-in (starting or confirming) needs the admin's password and, when they
--     already have a second factor, a current code from it: a stolen session alone can no longer replace the
--     owner's secret and recovery codes. The API checks both (the password hash and the secret come from
--     app.begin_factor_check, which counts the attempt like a sign-in of the admin's username).
--   * A new password or second factor gives the session that made the change a new token
--     (app.renew_session): the old session ends like the user's others, so a copy of its cookie stops working.

/** Functions */

-- Internal: gives the request's session a new token (p_token_hash, the hash of a token the API made) after a
-- change of the account's password or second factor. The old session ends like every other one of the user
-- (a copy of its cookie stops working with them); the new one keeps the browser, the address and the play
-- session, and lasts as a fresh sign-in. Returns its latest end (the cookie's expiry).
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

-- Before an admin sets up a second factor (starting or confirming it): the proof a stolen session lacks.
-- Records the attempt like a sign-in of their username (app.begin_attempt), and returns its id, the caller,
-- the stored password hash and the current second factor's secret (null when none: then the password alone
-- proves it). 403 for anyone but an admin.
create function app.begin_factor_check(p_ip text, p_device text default null)
returns table (attempt_id bigint, user_id bigint, password_hash text, totp_secret text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if v_user.role <> 'admin' then
    raise exception using errcode = 'BT403', message = 'Two-factor sign-in is for administrators';
  end if;
  attempt_id := app.begin_attempt('login', v_user.username, p_ip, p_device => p_device);
  user_id := v_user.id;
  select c.password_hash, c.totp_secret into password_hash, totp_secret from app.credentials c where c.user_id = v_user.id;
  return next;
end;
$$;
comment on function app.begin_factor_check(text, text) is
  'Rate-limited start of the calling admin''s proof for a second-factor set-up: attempt, hash, current secret. Caller: API.';

drop function app.change_password(text);

-- Sets the caller's new password hash (computed by the API after it checked the current password). The
-- trigger on app.credentials ends their other sessions, and this one gets a new token (p_token_hash, made by
-- the API; app.renew_session): a copy of the old cookie no longer works. Returns the new session's latest end.
create function app.change_password(p_password_hash text, p_token_hash text)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if p_password_hash is null or length(p_password_hash) = 0 then
    raise exception using errcode = 'BT400', message = 'Password is required';
  end if;
  perform app.check_length(p_password_hash, 'Password', 255);
  update app.credentials set password_hash = p_password_hash, updated_at = now() where user_id = v_user.id;
  return app.renew_session(p_token_hash);
end;
$$;
comment on function app.change_password(text, text) is
  'Sets the caller''s password hash; ends their other sessions and renews this one''s token. Caller: API.';

drop function app.confirm_totp_enrolment(text, bigint, text[]);

-- Confirms the calling admin's set-up: p_secret must still be the one being set up (another tab may have
-- started anew: 409), p_step is the time step of the code the API verified against it. The API has checked
-- the admin's password (and current second factor) first. The new secret ends every other session, and this
-- one gets a new token (p_token_hash; app.renew_session). Returns the new session's latest end.
create function app.confirm_totp_enrolment(p_secret text, p_step bigint, p_recovery_code_hashes text[], p_token_hash text)
returns timestamptz
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if v_user.role <> 'admin' or not exists (
    select 1 from app.credentials c where c.user_id = v_user.id and c.totp_pending_secret = p_secret
  ) then
    raise exception using errcode = 'BT409', message = 'Start setting up two-factor sign-in first';
  end if;
  perform app.install_totp(v_user.id, p_secret, p_step, p_recovery_code_hashes);
  return app.renew_session(p_token_hash);
end;
$$;
comment on function app.confirm_totp_enrolment(text, bigint, text[], text) is
  'Turns on the calling admin''s second factor once a code confirmed it; renews this session''s token. Caller: API.';

/** Function privileges */

revoke execute on function
  app.renew_session(text),
  app.begin_factor_check(text, text),
  app.change_password(text, text),
  app.confirm_totp_enrolment(text, bigint, text[], text)
  from public, anon, authenticated, service_role;
grant execute on function
  app.begin_factor_check(text, text),
  app.change_password(text, text),
  app.confirm_totp_enrolment(text, bigint, text[], text)
  to service_role;
