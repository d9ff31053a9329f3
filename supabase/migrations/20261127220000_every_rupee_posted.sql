-- The house's books, second part: every movement of money is one call of app.post_transfers. Bets (the
-- stake to the stakes held), settlement (one posting per batch: the payouts or refunds, the settled stakes to
-- the house's result), referral bonuses, and an admin's approval (an admin credit; a withdrawal paid, from
-- the wallet through withdrawals_payable to the bank) or rejection (a withdrawal returned: the pending
-- transfer voided) move onto it, so no other function writes a balance or a ledger row. The players' ledger
-- rows, their types and references stay as they were.
--
-- The books get their lines per match (app.match_lines: a settlement, later each correction, booked when its
-- outcome was fixed), and app.reconcile() checks the house's accounts too: each one's day totals against its
-- entries, the stakes held against the open bets, withdrawals_payable empty once posted, and each day's house
-- result against its matches' lines.
--
-- History is booked as it would have been: the settled stakes of every settlement run so far go to the
-- house's result, every completed withdrawal on to the bank, each settled match gets its line, and the day
-- totals are rebuilt from the ledger (a settlement's rows on the day its outcome was fixed, every other row on
-- the day it was posted).

/** Tables */

-- The books' lines per match: one for its settlement and one for each correction, booked at the moment its
-- outcome was fixed (the declaration, or the correction's approval), whenever its batches run. Each batch
-- adds its bets to its line (app.book_match_line) in the transaction that posts their money, so a line is
-- complete when its run is. stakes, paid and refunded are what the line moved: a settlement's are the
-- stakes of its bets, the payouts and the refunds; a correction's are the differences it made (paid and
-- refunded below zero where it took money back). Its house result is stakes - paid - refunded, and the
-- lines of an IST day add up to the house_result account's day total (app.reconcile checks it).
create table app.match_lines (
  match_id bigint not null references public.matches (id) on delete restrict,
  booked_at timestamptz not null,
  bets int not null check (bets >= 0),
  stakes bigint not null,
  paid bigint not null,
  refunded bigint not null,
  constraint match_lines_pkey primary key (match_id, booked_at)
);
comment on table app.match_lines is
  'The books'' lines per match (its settlement, each correction): bets, stakes, paid, refunded; kept by settlement.';
-- the books of a range of days
create index match_lines_booked_at_idx on app.match_lines (booked_at);
revoke all on app.match_lines from public, anon, authenticated, service_role;

/** Functions */

-- A transfer between two house accounts to post (app.post_transfers): from, to, amount, kind, and the match
-- (settled or reopened stakes) or the ledger row (a paid withdrawal) it belongs to.
create or replace function app.house_transfer(
  p_from text, p_to text, p_amount bigint, p_kind text, p_match_id bigint default null, p_transaction_id bigint default null
)
returns app.house_transfers
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_row app.house_transfers;
begin
  v_row.from_account := p_from;
  v_row.to_account := p_to;
  v_row.amount := p_amount;
  v_row.kind := p_kind;
  v_row.match_id := p_match_id;
  v_row.transaction_id := p_transaction_id;
  return v_row;
end;
$$;
comment on function app.house_transfer(text, text, bigint, text, bigint, bigint) is
  'Internal: a new transfer between two house accounts for app.post_transfers.';


-- Adds a batch's bets to its match's line of the books (app.match_lines): the line booked at p_booked_at
-- (the run's: a settlement's declaration, a correction's approval), created by its first batch. Called in
-- the transaction that posts the batch's money, with the same booking time, so the lines of a day and the
-- house_result account's day total move together. Batches of one run follow one another on the match row,
-- so the line's row never makes them wait longer. Internal: settlement and corrections.
create or replace function app.book_match_line(
  p_match_id bigint, p_booked_at timestamptz, p_bets int, p_stakes bigint, p_paid bigint, p_refunded bigint
)
returns void
language sql
set search_path = ''
as $$
  insert into app.match_lines as l (match_id, booked_at, bets, stakes, paid, refunded)
  values (p_match_id, p_booked_at, p_bets, p_stakes, p_paid, p_refunded)
  on conflict (match_id, booked_at) do update
    set bets = l.bets + excluded.bets, stakes = l.stakes + excluded.stakes, paid = l.paid + excluded.paid,
        refunded = l.refunded + excluded.refunded;
$$;
comment on function app.book_match_line(bigint, timestamptz, int, bigint, bigint, bigint) is
  'Internal: adds a settlement (or correction) batch''s bets to its match''s line of the books.';


-- Every way the books can be wrong, one row each (must be none):
--   * a wallet whose balance differs from its entries;
--   * a transfer whose entries do not sum to zero (so the accounts sum to zero);
--   * a house account whose day totals (its balance, app.account_days) differ from its entries;
--   * stakes held that differ from the stakes of the open bets;
--   * a posted withdrawal not gone on to the bank (withdrawals_payable holds nothing once posted);
--   * an IST day whose house result (the house_result account's day total) differs from its matches' lines;
--   * a player marked below zero who is not (a balance below zero without the mark is refused by
--     users_balance_below_zero).
-- Read-only; for monitoring and tests. Reads the whole ledger.
create or replace function app.reconcile()
returns table (problem text, subject text, expected bigint, actual bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select 'wallet differs from its entries', 'user ' || u.id, coalesce(l.total, 0)::bigint, u.wallet_balance
  from public.users u
  left join (
    select t.user_id, sum(t.amount) as total
    from public.transactions t
    where t.status = 'completed'
    group by t.user_id
  ) l on l.user_id = u.id
  where u.wallet_balance <> coalesce(l.total, 0);

  return query
  select 'transfer does not balance',
         coalesce('transaction ' || e.transaction_id, 'house transfer ' || e.house_transfer_id),
         0::bigint, sum(e.amount)::bigint
  from app.entries e
  group by e.transaction_id, e.house_transfer_id
  having sum(e.amount) <> 0 or count(*) <> 2;

  return query
  with entries as (
    select e.account, sum(e.amount) as total from app.entries e where e.account <> 'wallet' group by e.account
  ),
  days as (
    select d.account, sum(d.amount_in - d.amount_out) as total from app.account_days d group by d.account
  ),
  open_bets as (
    select coalesce(sum(b.amount), 0) as total from public.bets b where b.status = 'placed'
  )
  select case a.code when 'stakes_held' then 'stakes held differ from the open bets'
                     else 'house account differs from its entries' end,
         'account ' || a.code,
         coalesce(e.total, 0)::bigint,
         (case a.code when 'stakes_held' then (select o.total from open_bets o) else coalesce(d.total, 0) end)::bigint
  from app.accounts a
  left join entries e on e.account = a.code
  left join days d on d.account = a.code
  where a.code <> 'wallet'
    and coalesce(e.total, 0) <> case a.code when 'stakes_held' then (select o.total from open_bets o)
                                            else coalesce(d.total, 0) end
  union all
  select 'withdrawals payable not paid out', 'account withdrawals_payable', 0::bigint, e.total::bigint
  from entries e
  where e.account = 'withdrawals_payable' and e.total <> 0;

  return query
  with results as (
    select d.day, sum(d.amount_in - d.amount_out) as total
    from app.account_days d
    where d.account = 'house_result'
    group by d.day
  ),
  lines as (
    select (l.booked_at at time zone 'Asia/Kolkata')::date as day, sum(l.stakes - l.paid - l.refunded) as total
    from app.match_lines l
    group by 1
  )
  select 'house result differs from its matches', 'day ' || coalesce(r.day, l.day),
         coalesce(l.total, 0)::bigint, coalesce(r.total, 0)::bigint
  from results r
  full join lines l on l.day = r.day
  where coalesce(r.total, 0) <> coalesce(l.total, 0);

  return query
  select 'marked below zero but is not', 'user ' || u.id, 0::bigint, u.wallet_balance
  from public.users u
  where u.below_zero_since is not null and u.wallet_balance >= 0;
end;
$$;
comment on function app.reconcile() is 'Every way the books are wrong, one row each (must be none). Caller: service_role.';


-- Places a bet for the caller. The match (shared lock, so bets run in parallel but not beside a settlement,
-- a price change or a live update) must take bets: not suspended, not closed, not paused for a stale live
-- score; the team one of its two; amount ≥ 1000 and within the available balance. The odds are the price of
-- the team backed, read from the locked match row, and the potential win round(amount × odds): a client
-- value that disagrees with either (the price the player saw has changed) is a 409 'Odds have changed'. The
-- player (locked `for update`, so one player's bets run one after the other) must be active and not in a
-- time-out or self-exclusion. The bet goes in and the posting function takes its stake from the wallet to
-- the stakes held (its bet_placed ledger row); then app.book_bet applies the one-side rule, the stake and liability limits, and books the bet (a
-- refusal there undoes everything).
create or replace function app.place_bet(
  p_match_id bigint, p_team_id bigint, p_amount bigint, p_odds numeric default null, p_potential_win bigint default null
)
returns public.bets
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_user public.users := app.caller(true);
  v_match public.matches;
  v_odds numeric(5, 2);
  v_bet public.bets;
begin
  if p_amount is null or p_amount < 1000 then
    raise exception using errcode = 'BT400', message = 'Invalid amount: Please enter an amount of at least ₹1000.';
  end if;
  -- keeps amount × odds far inside bigint; no wallet can hold more anyway
  if p_amount > 1000000000000 then
    raise exception using errcode = 'BT409',
      message = 'Insufficient balance: You don''t have enough funds in your wallet. Please recharge your wallet.';
  end if;

  -- lock order: match (shared, so bets run in parallel but not alongside settlement or a price change), then
  -- the user; the price read here cannot change before this bet commits
  select * into v_match from public.matches where id = p_match_id for share;
  if not found then
    raise exception using errcode = 'BT404', message = 'Match not found';
  end if;
  if v_match.betting <> 'open' then
    raise exception using errcode = 'BT409', message = 'Betting is ' || v_match.betting || ' for this match';
  end if;
  if v_match.betting_pauses_at <= now() then
    raise exception using errcode = 'BT409', message = 'Betting is paused until the live score is updated';
  end if;
  if p_team_id is null or p_team_id not in (v_match.team1_id, v_match.team2_id) then
    raise exception using errcode = 'BT400', message = 'Selected team is not playing in this match';
  end if;
  v_odds := case p_team_id when v_match.team1_id then v_match.team1_odds else v_match.team2_odds end;
  if (p_odds is not null and p_odds <> v_odds)
     or (p_potential_win is not null and p_potential_win <> round(p_amount * v_odds)) then
    raise exception using errcode = 'BT409', message = 'Odds have changed';
  end if;

  select * into v_user from public.users where id = v_user.id for update;
  perform app.assert_may_gamble(v_user.id);
  if v_user.status <> 'active' then
    raise exception using errcode = 'BT403', message = 'Your account is ' || v_user.status;
  end if;
  if app.available_balance(v_user.id) < p_amount then
    raise exception using errcode = 'BT409',
      message = 'Insufficient balance: You don''t have enough funds in your wallet. Please recharge your wallet.';
  end if;

  insert into public.bets (user_id, match_id, team_id, amount, odds, potential_win, status)
  values (v_user.id, v_match.id, p_team_id, p_amount, v_odds, round(p_amount * v_odds), 'placed')
  returning * into v_bet;
  -- the stake from the wallet to the stakes held
  perform app.post_transfers(array[app.ledger_row(v_user.id, 'bet_placed', -p_amount, 'completed', 'BET-' || v_bet.id)]);
  perform app.book_bet(v_bet);
  return v_bet;
end;
$$;
comment on function app.place_bet(bigint, bigint, bigint, numeric, bigint) is
  'Places the caller''s bet at the current price of the team backed: debits the stake with its ledger row. Caller: API as the player.';


-- Settles one unsettled batch of a run that no other worker holds (FOR UPDATE SKIP LOCKED), in this
-- transaction: the players it credits (winners, or everyone of an abandoned match) and the referrers a bonus
-- may be paid to are locked in id order (so batches and other settlements sharing players cannot deadlock;
-- a losing player's row is not touched at all), the house's result on each referred player counts towards
-- their referrer's bonus (paid when due), the bets become won / lost / cancelled, and one call of the
-- posting function moves the batch's money: the ledger rows of its winning bets (+potential win) or, for an
-- abandoned match, of every bet (+stake back), one credit per player, and the stakes of the bets not
-- refunded from the stakes held to the house's result, booked when the outcome was fixed (the run's start),
-- as is the batch's share of the match's line of the books. The match's settlement_settled grows by the
-- bets (announcing the match with its progress). The batch that settles the last
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
  v_run app.settlement_runs;
  v_referred bigint[];
  v_rows public.transactions[];
  v_bets int;
  v_stakes bigint;
  v_paid bigint;
  v_refunded bigint;
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
  select * into v_run from app.settlement_runs r where r.match_id = p_match_id;
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

  -- the bets settled, with the batch's figures and the ledger rows of its winning or refunded bets
  with settled as (
    update public.bets b
      set status = case when v_void then 'cancelled' when b.team_id = v_winner then 'won' else 'lost' end,
          settled_at = now()
      where b.match_id = p_match_id and b.user_id between v_batch.first_user_id and v_batch.last_user_id
        and b.status = 'placed'
      returning b.id, b.user_id, b.amount, b.potential_win, b.status
  )
  select count(*), coalesce(sum(s.amount), 0),
         coalesce(sum(s.potential_win) filter (where s.status = 'won'), 0),
         coalesce(sum(s.amount) filter (where s.status = 'cancelled'), 0),
         coalesce(array_agg(app.ledger_row(s.user_id, case when v_void then 'bet_refund' else 'bet_won' end,
                                           case when v_void then s.amount else s.potential_win end,
                                           'completed', 'BET-' || s.id) order by s.user_id, s.id)
                    filter (where s.status in ('won', 'cancelled')), '{}')
    into v_bets, v_stakes, v_paid, v_refunded, v_rows
    from settled s;

  -- one posting: the payouts or refunds into the wallets, the stakes of the bets that were not refunded
  -- from the stakes held to the house's result, booked when the outcome was fixed
  select coalesce(sum(t.amount), 0) into v_credited
    from app.post_transfers(
      v_rows,
      case when v_stakes > v_refunded
        then array[app.house_transfer('stakes_held', 'house_result', v_stakes - v_refunded, 'stakes_settled', p_match_id)]
        else '{}' end,
      v_run.created_at) t;
  if v_bets > 0 then
    perform app.book_match_line(p_match_id, v_run.created_at, v_bets, v_stakes, v_paid, v_refunded);
  end if;

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
  v_paying bigint[];
  v_rows public.transactions[];
begin
  if coalesce(v_bonus, 0) <= 0 then
    return;
  end if;
  update app.referrals r set linked_at = now()
    where r.user_id = any (p_referred) and r.paid_at is null and r.linked_at is null and r.house_result >= v_bonus
      and r.referrer_id in (select l.user_id from app.linked_accounts(r.user_id, interval '90 days') l);
  -- the bonuses due and within the cap: the referred players and their referrers' ledger rows
  select coalesce(array_agg(p.user_id), '{}'),
         coalesce(array_agg(app.ledger_row(p.referrer_id, 'referral_bonus', v_bonus, 'completed', 'REFERRAL-' || p.user_id)), '{}')
    into v_paying, v_rows
    from (select d.user_id, d.referrer_id
          from (select r.user_id, r.referrer_id,
                       row_number() over (partition by r.referrer_id order by r.user_id) as n
                from app.referrals r
                where r.user_id = any (p_referred) and r.paid_at is null and r.linked_at is null
                  and r.house_result >= v_bonus) d
          where d.n + (select count(*) from app.referrals p
                       where p.referrer_id = d.referrer_id and p.paid_at > now() - interval '30 days') <= v_cap) p;
  if cardinality(v_rows) > 0 then
    -- from the bonuses account to each referrer's wallet
    perform app.post_transfers(v_rows);
    update app.referrals r set paid_at = now() where r.user_id = any (v_paying);
  end if;
end;
$$;
comment on function app.pay_referral_bonuses(bigint[]) is
  'Internal: pays the due referral bonuses of these referred players (capped per referrer); callers hold their and their referrers'' locks.';


-- Approves a pending transaction (not the admin's own). Two admins from adjustment_review_amount up
-- (app.second_admin_approval): a first approval is recorded and answered with the transaction still pending
-- (audit 'transaction.first_approval'); the approval that completes it moves the money. A deposit (money no
-- gateway confirmed) counts against the approving admin's daily credit cap (409 'Daily credit limit
-- reached'), is never approved while its player is self-excluded (409 'This player is self-excluded') and is
-- then completed and credited; a withdrawal is paid (debited, the balance checked again, and passed on to
-- the bank); an admin credit is
-- applied, by an admin other than the one who asked for it (403 'A second administrator must approve this
-- adjustment'). Lock order: the transaction, the admin's credit lock, then the user.
create or replace function app.approve_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions;
  v_tx public.transactions;
  v_complete boolean;
begin
  v_before := app.lock_pending_transaction(p_transaction_id, v_admin);
  v_complete := app.second_admin_approval(v_before, v_admin);
  if v_before.type = 'deposit' then
    perform app.check_credit_cap(v_admin.id, v_before.amount, v_before.id);
    -- the player's row, which a self-exclusion takes too: one that started before is seen here, one that
    -- starts later comes after this approval
    perform 1 from public.users where id = v_before.user_id for update;
    if app.is_self_excluded(v_before.user_id) then
      raise exception using errcode = 'BT409', message = 'This player is self-excluded';
    end if;
  end if;
  if not v_complete then
    perform app.audit(v_admin.id, 'transaction.first_approval', 'transaction', v_before.id, to_jsonb(v_before),
      jsonb_build_object('status', 'pending', 'waiting_for', 'a second administrator'));
    return v_before;
  end if;

  if v_before.type = 'deposit' then
    v_tx := app.apply_deposit(v_before.id, null);
  else
    -- an admin credit, or a withdrawal (negative), paid out: from the wallet to withdrawals_payable and on to
    -- the bank. The posting function refuses a debit the balance does not cover (409 'Insufficient balance').
    select * into v_tx from app.post_transfers(
      array[app.ledger_decision(v_before.id, 'completed')],
      case when v_before.type = 'withdrawal'
        then array[app.house_transfer('withdrawals_payable', 'gateway_clearing', -v_before.amount, 'withdrawal_paid',
                                      p_transaction_id => v_before.id)]
        else '{}' end);
  end if;
  perform app.audit(v_admin.id, 'transaction.approve', 'transaction', v_tx.id, to_jsonb(v_before), to_jsonb(v_tx));
  return v_tx;
end;
$$;
comment on function app.approve_transaction(bigint) is
  'Approves a pending deposit (credit) or withdrawal (debit) of another user; from adjustment_review_amount up a first approval waits for a second admin. Caller: API as an admin.';


-- Rejects a pending transaction (not the admin's own; an admin credit not by the admin who asked for it):
-- marked failed, no money moves.
create or replace function app.reject_transaction(p_transaction_id bigint)
returns public.transactions
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin public.users := app.require_admin();
  v_before public.transactions := app.lock_pending_transaction(p_transaction_id, v_admin);
  v_tx public.transactions;
begin
  -- the pending transfer voided: a withdrawal returned to the available balance, nothing moves
  select * into v_tx from app.post_transfers(array[app.ledger_decision(v_before.id, 'failed')]);
  perform app.audit(v_admin.id, 'transaction.reject', 'transaction', v_tx.id, to_jsonb(v_before), to_jsonb(v_tx));
  return v_tx;
end;
$$;
comment on function app.reject_transaction(bigint) is
  'Rejects another user''s pending transaction (no funds move). Caller: API as an admin.';


revoke execute on function
  app.house_transfer(text, text, bigint, text, bigint, bigint),
  app.book_match_line(bigint, timestamptz, int, bigint, bigint, bigint)
  from public, anon, authenticated, service_role;

/** History */

-- when each settled match's outcome was fixed: its run's start (the end of its settlement for a match
-- settled before runs were recorded)
create temporary table settled_matches as
  select b.match_id, coalesce(r.created_at, max(b.settled_at)) as booked_at, count(*)::int as bets,
         sum(b.amount)::bigint as stakes,
         coalesce(sum(b.potential_win) filter (where b.status = 'won'), 0)::bigint as paid,
         coalesce(sum(b.amount) filter (where b.status = 'cancelled'), 0)::bigint as refunded
  from public.bets b
  left join app.settlement_runs r on r.match_id = b.match_id
  where b.status <> 'placed'
  group by b.match_id, r.created_at;

insert into app.match_lines (match_id, booked_at, bets, stakes, paid, refunded)
select match_id, booked_at, bets, stakes, paid, refunded from settled_matches;

insert into app.house_transfers (from_account, to_account, amount, kind, match_id, booked_at)
select 'stakes_held', 'house_result', stakes - refunded, 'stakes_settled', match_id, booked_at
from settled_matches
where stakes > refunded;

insert into app.house_transfers (from_account, to_account, amount, kind, transaction_id, booked_at)
select 'withdrawals_payable', 'gateway_clearing', -t.amount, 'withdrawal_paid', t.id, t.updated_at
from public.transactions t
where t.type = 'withdrawal' and t.status = 'completed'
on conflict (transaction_id) where transaction_id is not null do nothing;

delete from app.account_days;
insert into app.account_days (account, day, stripe, amount_in, amount_out)
select f.account, (f.booked_at at time zone 'Asia/Kolkata')::date, 0, sum(f.amount_in), sum(f.amount_out)
from (
  select l.account, coalesce(m.booked_at, t.updated_at) as booked_at,
         greatest(-t.amount, 0) as amount_in, greatest(t.amount, 0) as amount_out
  from public.transactions t
  join app.ledger_types l on l.type = t.type
  left join public.bets b on t.type in ('bet_won', 'bet_lost', 'bet_refund') and t.reference_id = 'BET-' || b.id
  left join settled_matches m on m.match_id = b.match_id
  where t.status = 'completed'
  union all
  select h.from_account, h.booked_at, 0, h.amount from app.house_transfers h
  union all
  select h.to_account, h.booked_at, h.amount, 0 from app.house_transfers h
) f
where f.account <> 'stakes_held'
group by 1, 2;

drop table settled_matches;
