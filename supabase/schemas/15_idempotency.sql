-- Idempotency of POST /api/bets and /api/wallet/withdraw (brandur/rocket-rides-atomic): the key is unique
-- per user, the request's hash is stored (reuse with other parameters is a 409) and the answer is replayed
-- on retry. The whole check runs inside the request's one transaction and round trip: app.idempotency_begin
-- before the business function, app.idempotency_save with its answer in the same statement.

/** Tables */

create table app.idempotency_keys (
  user_id bigint not null references public.users (id) on delete cascade,
  key varchar(255) not null,
  request_hash varchar(255) not null,
  response_status int not null,
  response_body jsonb,
  created_at timestamptz not null default now(),
  constraint idempotency_keys_pkey primary key (user_id, key)
);
comment on table app.idempotency_keys is 'Saved responses of idempotent requests, per user and key (24 hours).';
create index idempotency_keys_created_at_idx on app.idempotency_keys (created_at);
revoke all on app.idempotency_keys from public, anon, authenticated, service_role;

/** Functions */

-- Starts an idempotent request for the caller's key, in the request's transaction and before its business
-- function: takes a transaction-level advisory lock on (user, key), so concurrent requests with one key run
-- one after the other. A key already used for another request is a 409. A key already answered raises
-- SQLSTATE 'BT' + the saved status (e.g. BT201) with the saved answer as DETAIL: the request's transaction
-- ends there (nothing else runs, nothing moves) and the API replays the answer — so a retry costs one round
-- trip, like the first attempt. Expired keys (24 hours) of the caller are forgotten here.
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

-- Saves the answer for (caller, key). Called in the same transaction as app.idempotency_begin, once the
-- business function has answered. Purges expired keys of every user on the way.
create function app.idempotency_save(
  p_key text, p_request_hash text, p_response_status int, p_response_body jsonb
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(false);
begin
  if p_key is null or length(p_key) = 0 then
    raise exception using errcode = 'BT400', message = 'Idempotency key is required';
  end if;
  perform app.check_length(p_key, 'Idempotency key', 255);
  perform app.check_length(p_request_hash, 'Request hash', 255);
  insert into app.idempotency_keys (user_id, key, request_hash, response_status, response_body)
  values (v_user.id, p_key, p_request_hash, p_response_status, p_response_body)
  on conflict (user_id, key) do update
    set request_hash = excluded.request_hash, response_status = excluded.response_status,
        response_body = excluded.response_body, created_at = now();
  -- opportunistic purge of expired keys
  delete from app.idempotency_keys where created_at < now() - interval '24 hours';
end;
$$;
comment on function app.idempotency_save(text, text, int, jsonb) is 'Saves the response for an idempotency key. Caller: API.';

/** Function privileges */

revoke execute on function
  app.idempotency_begin(text, text),
  app.idempotency_save(text, text, int, jsonb)
  from public, anon, authenticated, service_role;
grant execute on function app.idempotency_begin(text, text), app.idempotency_save(text, text, int, jsonb) to service_role;
