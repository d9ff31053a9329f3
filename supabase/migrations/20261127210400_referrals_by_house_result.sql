-- Referral bonuses earned by what the house made: a referrer's bonus is paid once the house's result on the
-- referred player's settled bets (their losses minus their winnings) reaches the bonus, as affiliate
-- programmes pay, instead of once their settled stakes reached their first deposit; and never for an account
-- linked to its referrer (a shared bank account, phone number or device), marked when the link is seen (at a
-- sign-in, at payment) and never paid. A referrer who opens two referred accounts that back opposite sides of
-- a match earns nothing on the one that wins, and the one that loses pays for its own bonus.
--
-- Existing referrals not yet paid start from the house's result on the referred player's settled bets so
-- far; first_deposit and staked are no longer read and go.

/** Tables */

alter table app.referrals
  drop column first_deposit,
  drop column staked,
  add column house_result bigint not null default 0,
  add column linked_at timestamptz;
comment on table app.referrals is
  'Referred players: the bonus is due once house_result (the house''s result on their settled bets) reaches it, never once linked_at; paid_at once paid.';

update app.referrals r set house_result = s.result
  from (select b.user_id, sum(b.amount - case when b.status = 'won' then b.potential_win else 0 end) as result
        from public.bets b
        where b.status in ('won', 'lost')
        group by b.user_id) s
  where r.user_id = s.user_id and r.paid_at is null;

update app.settings set description =
  'Rupees credited to the referrer once the house''s result on the referred player''s settled bets reaches them.'
  where key = 'referral_bonus_amount';

/** Functions */

-- Pays the referral bonuses now due to the referrers of p_referred: each whose house_result reached the bonus
-- and is not paid yet, at most referral_bonuses_per_month per referrer in 30 days (a bonus over the cap stays
-- due: it is paid at the referred player's next settlement that finds room). A referred account linked to its
-- referrer (app.linked_accounts, devices within 90 days) is marked linked and never paid. Callers hold the
-- row locks of the referred players and of their referrers (so a referrer's count cannot change under them).
-- The unique REFERRAL-{referred user id} reference keeps every bonus to one payment.
create or replace function app.pay_referral_bonuses(p_referred bigint[])
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_bonus bigint := (select (s.value #>> '{}')::bigint from app.settings s where s.key = 'referral_bonus_amount');
  v_cap int := (app.current_risk_settings()).referral_bonuses_per_month;
begin
  if coalesce(v_bonus, 0) <= 0 then
    return;
  end if;
  update app.referrals r set linked_at = now()
    where r.user_id = any (p_referred) and r.paid_at is null and r.linked_at is null and r.house_result >= v_bonus
      and r.referrer_id in (select l.user_id from app.linked_accounts(r.user_id, interval '90 days') l);
  with due as (
    select r.user_id, r.referrer_id,
           row_number() over (partition by r.referrer_id order by r.user_id) as n
    from app.referrals r
    where r.user_id = any (p_referred) and r.paid_at is null and r.linked_at is null and r.house_result >= v_bonus
  ),
  paying as (
    select d.user_id, d.referrer_id
    from due d
    where d.n + (select count(*) from app.referrals p
                 where p.referrer_id = d.referrer_id and p.paid_at > now() - interval '30 days') <= v_cap
  ),
  ledger as (
    insert into public.transactions (user_id, amount, type, status, reference_id)
    select p.referrer_id, v_bonus, 'referral_bonus', 'completed', 'REFERRAL-' || p.user_id
    from paying p
    on conflict (type, reference_id) where reference_id is not null do nothing
    returning user_id, amount
  ),
  credited as (
    update public.users u set wallet_balance = u.wallet_balance + c.total
    from (select l.user_id, sum(l.amount) as total from ledger l group by l.user_id) c
    where u.id = c.user_id
  )
  update app.referrals r set paid_at = now()
  from paying p
  where r.user_id = p.user_id;
end;
$$;
comment on function app.pay_referral_bonuses(bigint[]) is
  'Internal: pays the due referral bonuses of these referred players (capped per referrer); callers hold their and their referrers'' locks.';

-- A sign-in of p_user_id with device p_device: a referral between this account and its referrer (either way)
-- whose other account signed in with the same device within 90 days is marked linked (never paid), so the
-- link counts even if the bonus comes due long after. Internal: app.create_session.
create function app.note_referral_links(p_user_id bigint, p_device text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update app.referrals r set linked_at = now()
    where r.paid_at is null and r.linked_at is null and (r.user_id = p_user_id or r.referrer_id = p_user_id)
      and exists (select 1 from app.user_devices d
                  where d.device_id = p_device and d.last_sign_in_at > now() - interval '90 days'
                    and d.user_id = case when r.user_id = p_user_id then r.referrer_id else r.user_id end);
end;
$$;
comment on function app.note_referral_links(bigint, text) is
  'Internal: at a sign-in, marks linked the referrals whose other account used the same device within 90 days.';

-- Completes a pending deposit (already locked by the caller): marks it completed and credits the wallet.
create or replace function app.apply_deposit(p_transaction_id bigint, p_gateway_txn_id text)
returns public.transactions
language plpgsql
set search_path = ''
as $$
declare
  v_tx public.transactions;
begin
  select * into v_tx from app.post_transfers(array[app.ledger_decision(p_transaction_id, 'completed', p_gateway_txn_id)]);
  return v_tx;
end;
$$;
comment on function app.apply_deposit(bigint, text) is
  'Internal: completes a locked pending deposit and credits it once.';

-- Stores a new session (hash of the cookie token) with the browser and address it was opened from, and
-- remembers the browser's device cookie id as one that has signed in as this user (a referral between two
-- accounts of that browser is then never paid: app.note_referral_links). Refuses banned users
-- (403). Returns the latest moment the session can last (the cookie's expiry). Purges expired sessions
-- and devices whose cookie has expired (sign-ins are rare enough for this to be cheap).
create or replace function app.create_session(
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

-- Settles one unsettled batch of a run that no other worker holds (FOR UPDATE SKIP LOCKED), in this
-- transaction: the players it credits (winners, or everyone of an abandoned match) and the referrers a bonus
-- may be paid to are locked in id order (so batches and other settlements sharing players cannot deadlock;
-- a losing player's row is not touched at all), the ledger rows of its winning bets (+potential win) or,
-- for an abandoned match, of every bet (+stake back) go in with one credit per player, the house's result on
-- each referred player counts towards their referrer's bonus (paid when due), the bets become won / lost /
-- cancelled, and the match's settlement_settled grows by them (announcing the match with its progress). The batch that settles the last
-- bets checks the run's totals (no bet left placed, the credits as expected; a mismatch is an error that
-- keeps the run open and visible), empties an abandoned match's book and finishes the run. Tells the
-- server processes the batch's players have results (`bet_results`; where Realtime exists, a trigger also
-- broadcasts them to each player's private topic). Answers the bets it settled, or null when no batch was
-- free (it then holds no lock). Commits are not waited for on disk: a batch lost in a crash was never seen and is settled
-- again by the sweep, exactly once.
create or replace function app.settle_batch(p_match_id bigint)
returns int
language plpgsql
set search_path = ''
set work_mem = '64MB'
as $$
declare
  v_batch app.settlement_batches;
  v_match public.matches;
  v_void boolean;
  v_winner bigint;
  v_referred bigint[];
  v_bets int;
  v_credited bigint;
begin
  select * into v_batch
    from app.settlement_batches x
    where x.match_id = p_match_id and x.settled_at is null
    order by x.first_user_id
    limit 1
    for update skip locked;
  if not found then
    return null;
  end if;
  perform set_config('synchronous_commit', 'off', true);
  select * into v_match from public.matches m where m.id = p_match_id;
  v_winner := v_match.winning_team_id;
  v_void := v_winner is null;

  perform 1 from public.users u
    where u.id in (select b.user_id from public.bets b
                   where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
                     and b.status = 'placed' and (v_void or b.team_id = v_winner)
                   union all
                   select r.referrer_id from app.referrals r
                   join public.bets b on b.user_id = r.user_id and b.match_id = p_match_id and b.status = 'placed'
                   where r.paid_at is null and r.linked_at is null and not v_void
                     and r.user_id between v_batch.first_user_id and v_batch.last_user_id)
    order by u.id
    for no key update;

  insert into public.transactions (user_id, amount, type, status, reference_id)
  select b.user_id, case when v_void then b.amount else b.potential_win end,
         case when v_void then 'bet_refund' else 'bet_won' end, 'completed', 'BET-' || b.id
  from public.bets b
  where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
    and b.status = 'placed' and (v_void or b.team_id = v_winner)
  order by b.user_id, b.id;

  with credits as (
    update public.users u set wallet_balance = u.wallet_balance + c.total
    from (select b.user_id, sum(case when v_void then b.amount else b.potential_win end) as total
          from public.bets b
          where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
            and b.status = 'placed' and (v_void or b.team_id = v_winner)
          group by b.user_id) c
    where u.id = c.user_id
    returning c.total
  )
  select coalesce(sum(total), 0) into v_credited from credits;

  if not v_void then
    -- the house's result on each referred player's bets of this batch: stakes lost, minus winnings paid
    with results as (
      update app.referrals r set house_result = r.house_result + s.result
      from (select b.user_id, sum(b.amount - case when b.team_id = v_winner then b.potential_win else 0 end) as result
            from public.bets b
            join app.referrals x on x.user_id = b.user_id and x.paid_at is null and x.linked_at is null
            where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
              and b.status = 'placed'
            group by b.user_id) s
      where r.user_id = s.user_id
      returning r.user_id
    )
    select array_agg(user_id) into v_referred from results;
    if v_referred is not null then
      perform app.pay_referral_bonuses(v_referred);
    end if;
  end if;

  with settled as (
    update public.bets b
      set status = case when v_void then 'cancelled' when b.team_id = v_winner then 'won' else 'lost' end,
          settled_at = now()
      where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
        and b.status = 'placed'
      returning 1
  )
  select count(*) into v_bets from settled;

  update app.settlement_batches x set settled_at = now(), bets = v_bets, credited = v_credited
    where x.match_id = p_match_id and x.first_user_id = v_batch.first_user_id;
  update public.matches m set settlement_settled = m.settlement_settled + v_bets, updated_at = now()
    where m.id = p_match_id
    returning * into v_match;

  if v_match.settlement_settled = v_match.settlement_total then
    perform app.finish_settlement(v_match);
  end if;
  perform pg_notify('bet_results', json_build_object(
    'match_id', p_match_id, 'first_user_id', v_batch.first_user_id, 'last_user_id', v_batch.last_user_id)::text);
  return v_bets;
end;
$$;
comment on function app.settle_batch(bigint) is
  'Settles one free batch of a settlement run in this transaction. Caller: the settlement workers (app.settle_step).';

/** Function privileges */

revoke execute on function app.note_referral_links(bigint, text) from public, anon, authenticated, service_role;
