-- Match-day speed: a bet's posting and its session check cost less, with the same rules under the same locks.
--   * app.post_transfers posts one new completed ledger row without house transfers (a bet's stake) in
--     statements of its own that touch that row's wallet only: the lock, the row, the balance with its guard,
--     the day totals. The general statement stays for every other posting.
--   * app.authenticate reads the credentials only for an admin route that needs a second factor: as one
--     condition with the access level, that check was planned afresh on every request.

create or replace function app.post_transfers(
  p_rows public.transactions[],
  p_house app.house_transfers[] default '{}',
  p_booked_at timestamptz default now()
)
returns setof public.transactions
language plpgsql
set search_path = ''
as $$
declare
  v_day date := (p_booked_at at time zone 'Asia/Kolkata')::date;
  v_stripe smallint := pg_backend_pid() % 8;
  v_written public.transactions[];
  v_overdrawn bigint;
  v_row public.transactions;
  v_balance bigint;
begin
  -- One new completed ledger row and no house transfer (a bet's stake, a bonus, a deposit credited): the
  -- same writes and the same guard in statements of its own, which touch that row's wallet only. The
  -- statement below carries every case (decisions, house transfers, many wallets), whose empty branches cost
  -- such a posting more than the row it writes.
  if cardinality(p_rows) = 1 and cardinality(p_house) = 0 and (p_rows[1]).id is null
     and (p_rows[1]).status = 'completed' then
    v_row := p_rows[1];
    perform 1 from public.users u where u.id = v_row.user_id for no key update;
    v_row.id := nextval('public.transactions_id_seq'::regclass);
    insert into public.transactions as t (id, user_id, amount, type, status, reference_id, notes, payment_method,
                                          bank_account_id, gateway_txn_id, requested_by)
    overriding system value
    select v_row.id, v_row.user_id, v_row.amount, v_row.type, v_row.status,
           coalesce(v_row.reference_id, (select l.reference_prefix from app.ledger_types l where l.type = v_row.type) || v_row.id),
           v_row.notes, v_row.payment_method, v_row.bank_account_id, v_row.gateway_txn_id, v_row.requested_by
    on conflict (type, reference_id) where reference_id is not null do nothing
    returning t.* into v_row;
    if not found then
      return;
    end if;
    update public.users u
      set wallet_balance = u.wallet_balance + v_row.amount,
          below_zero_since = case when u.wallet_balance + v_row.amount < 0 then coalesce(u.below_zero_since, now()) end
      where u.id = v_row.user_id
      returning u.wallet_balance into v_balance;
    if v_balance < 0 and v_row.amount < 0 and v_row.type <> 'settlement_reversal' then
      raise exception using errcode = 'BT409', message = 'Insufficient balance';
    end if;
    insert into app.account_days as d (account, day, stripe, amount_in, amount_out)
    select l.account, v_day, v_stripe, greatest(-v_row.amount, 0), greatest(v_row.amount, 0)
    from app.ledger_types l
    where l.type = v_row.type and l.account <> 'stakes_held'
    on conflict (account, day, stripe) do update
      set amount_in = d.amount_in + excluded.amount_in, amount_out = d.amount_out + excluded.amount_out;
    return next v_row;
    return;
  end if;

  perform 1 from public.users u
    where u.id in (select r.user_id from unnest(p_rows) r where r.id is null and r.status = 'completed'
                   union all
                   select t.user_id from public.transactions t
                   where t.id in (select r.id from unnest(p_rows) r where r.status = 'completed'))
    order by u.id
    for no key update;

  with input as (
    select r.* from unnest(p_rows) r
  ),
  added as (
    insert into public.transactions as t (id, user_id, amount, type, status, reference_id, notes, payment_method,
                                          bank_account_id, gateway_txn_id, requested_by)
    overriding system value
    select n.id, n.user_id, n.amount, n.type, n.status, coalesce(n.reference_id, l.reference_prefix || n.id),
           n.notes, n.payment_method, n.bank_account_id, n.gateway_txn_id, n.requested_by
    from (select nextval('public.transactions_id_seq'::regclass) as id, i.user_id, i.amount, i.type, i.status,
                 i.reference_id, i.notes, i.payment_method, i.bank_account_id, i.gateway_txn_id, i.requested_by
          from input i
          where i.id is null) n
    left join app.ledger_types l on l.type = n.type
    on conflict (type, reference_id) where reference_id is not null do nothing
    returning t.*
  ),
  decided as (
    update public.transactions t
      set status = i.status, gateway_txn_id = coalesce(i.gateway_txn_id, t.gateway_txn_id), updated_at = now()
      from input i
      where i.id is not null and t.id = i.id
        and ((i.status = 'completed' and t.status <> 'completed') or (i.status = 'failed' and t.status = 'pending'))
      returning t.*
  ),
  moved as (
    select a.user_id, a.amount, a.type from added a where a.status = 'completed'
    union all
    select d.user_id, d.amount, d.type from decided d where d.status = 'completed'
  ),
  wallets as (
    update public.users u
      set wallet_balance = u.wallet_balance + m.total,
          below_zero_since = case when u.wallet_balance + m.total < 0 then coalesce(u.below_zero_since, now()) end
      from (select m.user_id, sum(m.amount) as total, bool_or(m.type = 'settlement_reversal') as reversal
            from moved m group by m.user_id) m
      where u.id = m.user_id
      returning u.wallet_balance, m.total, m.reversal
  ),
  house as (
    insert into app.house_transfers (from_account, to_account, amount, kind, match_id, transaction_id, booked_at)
    select h.from_account, h.to_account, h.amount, h.kind, h.match_id, h.transaction_id, p_booked_at
    from unnest(p_house) h
    returning from_account, to_account, amount
  ),
  flows as (
    select l.account, greatest(-m.amount, 0) as amount_in, greatest(m.amount, 0) as amount_out
    from moved m join app.ledger_types l on l.type = m.type
    union all
    select h.from_account, 0, h.amount from house h
    union all
    select h.to_account, h.amount, 0 from house h
  ),
  days as (
    insert into app.account_days as d (account, day, stripe, amount_in, amount_out)
    select f.account, v_day, v_stripe, sum(f.amount_in), sum(f.amount_out)
    from flows f
    where f.account <> 'stakes_held'
    group by f.account
    order by f.account
    on conflict (account, day, stripe) do update
      set amount_in = d.amount_in + excluded.amount_in, amount_out = d.amount_out + excluded.amount_out
  )
  select (select count(*) from wallets w where w.wallet_balance < 0 and w.total < 0 and not w.reversal),
         array(select a::public.transactions from added a union all select d::public.transactions from decided d)
    into v_overdrawn, v_written;

  if v_overdrawn > 0 then
    raise exception using errcode = 'BT409', message = 'Insufficient balance';
  end if;
  return query select * from unnest(v_written);
end;
$$;

create or replace function app.authenticate(
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
