-- Live streams end with their session: every session that ends is announced (sessions_ended), so the server
-- processes close the streams it opened within moments; app.ended_sessions finds what an announcement
-- missed.

/** Functions and triggers */

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

/** Function privileges */

revoke execute on function
  app.announce_ended_sessions(),
  app.ended_sessions(bigint[])
  from public, anon, authenticated, service_role;
