// Match-day volumes written straight into the database, for `npm run bench` (and big seeds): players with
// completed deposits and bets on one match, each bet with its bet_placed ledger row and its stake debited,
// and the house's side of the rows (day totals, withdrawals paid out: houseSideOf), so the books hold
// (app.reconcile() stays empty), and the match's book and the players' stake totals set from the bets
// (bookFromBets), exactly as if every bet had been placed through app.place_bet.
// Set-based SQL: 100,000 bets take seconds, not the minutes the API would need.
//
// Runs as the connection's own role (a superuser or the owner of the tables): it writes what only the app.*
// functions may write in production. Never point it at a database with real players.

/**
 * Adds `players` new players, each funded with exactly what their bets stake, and `betsPerPlayer` bets of
 * ₹1,000 each on match `matchId` (which must be upcoming or live), every player on one team (a player backs
 * one side of a match), alternating between the two teams from player to player.
 * `tag` keeps usernames, emails and referral codes apart between calls. Returns the number of bets.
 */
export async function addPlayersWithBets(sql, { matchId, players, betsPerPlayer = 1, tag }) {
  const stake = 1000;
  const funds = stake * betsPerPlayer;
  const [match] =
    await sql`select team1_id, team2_id from public.matches where id = ${matchId} and status in ('upcoming', 'live')`;
  if (!match) throw new Error(`match ${matchId} does not take bets`);
  return sql.begin(async (tx) => {
    const [range] = await tx`
      with funded as (
        insert into public.users (username, name, email, referral_code, wallet_balance)
        select ${`bulk_${tag}_`} || g, 'Bulk player ' || g, ${`bulk_${tag}_`} || g || '@example.com',
               ${`BK${tag}`} || lpad(g::text, 7, '0'), ${funds}
        from generate_series(1, ${players}::int) g
        returning id
      ), deposited as (
        insert into public.transactions (user_id, amount, type, status, reference_id, payment_method)
        select id, ${funds}, 'deposit', 'completed', 'REF-' || id || '-BULK', 'upi' from funded
      )
      select min(id)::bigint as first, max(id)::bigint as last from funded`;
    const [{ count }] = await tx`
      with placed as (
        insert into public.bets (user_id, match_id, team_id, amount, odds, potential_win, status)
        select u.id, ${matchId}, case when u.id % 2 = 0 then ${match.team1_id} else ${match.team2_id} end::bigint,
               ${stake}, 3.00, ${stake * 3}, 'placed'
        from public.users u cross join generate_series(1, ${betsPerPlayer}::int) g
        where u.username like ${`bulk\\_${tag}\\_%`}
        returning id, user_id, amount
      ), ledger as (
        insert into public.transactions (user_id, amount, type, status, reference_id)
        select user_id, -amount, 'bet_placed', 'completed', 'BET-' || id from placed
      ), debited as (
        update public.users u set wallet_balance = u.wallet_balance - s.total
        from (select user_id, sum(amount) as total from placed group by user_id) s
        where u.id = s.user_id
      )
      select count(*)::int as count from placed`;
    await bookFromBets(tx, matchId);
    await houseSideOf(tx, range);
    return count;
  });
}

/**
 * The house's side of the completed ledger rows of the players `first` to `last`, written straight into the
 * ledger: each withdrawal passed on to the bank, and the house accounts' day totals (on the day each row was
 * written, in the 8 stripes concurrent postings spread them over), as app.post_transfers keeps them with every
 * posting, so app.reconcile() stays empty.
 */
async function houseSideOf(tx, { first, last }) {
  await tx`
    insert into app.house_transfers (from_account, to_account, amount, kind, transaction_id, booked_at)
    select 'withdrawals_payable', 'gateway_clearing', -amount, 'withdrawal_paid', id, created_at
    from public.transactions
    where user_id between ${first} and ${last} and type = 'withdrawal' and status = 'completed'`;
  await tx`
    insert into app.account_days as d (account, day, stripe, amount_in, amount_out)
    select f.account, (f.at at time zone 'Asia/Kolkata')::date, f.user_id % 8, sum(f.amount_in), sum(f.amount_out)
    from (
      select l.account, t.created_at as at, t.user_id, greatest(-t.amount, 0) as amount_in,
             greatest(t.amount, 0) as amount_out
      from public.transactions t
      join app.ledger_types l on l.type = t.type
      where t.user_id between ${first} and ${last} and t.status = 'completed'
      union all
      select x.account, h.booked_at, t.user_id, x.amount_in, x.amount_out
      from app.house_transfers h
      join public.transactions t on t.id = h.transaction_id
      cross join lateral (values (h.from_account, 0::bigint, h.amount), (h.to_account, h.amount, 0::bigint))
        as x (account, amount_in, amount_out)
      where t.user_id between ${first} and ${last}
    ) f
    where f.account <> 'stakes_held'
    group by 1, 2, 3
    on conflict (account, day, stripe) do update
      set amount_in = d.amount_in + excluded.amount_in, amount_out = d.amount_out + excluded.amount_out`;
}

/**
 * Sets match `matchId`'s book (app.match_book: the bets not cancelled, per side, in stripe 0) and its players'
 * stake totals (app.player_match_stakes) from its bets, as app.place_bet keeps them bet by bet.
 */
async function bookFromBets(tx, matchId) {
  await tx`update app.match_book set bets = 0, staked = 0, payout = 0 where match_id = ${matchId}`;
  await tx`
    update app.match_book k set bets = b.bets, staked = b.staked, payout = b.payout
    from (select team_id, count(*) as bets, sum(amount) as staked, sum(potential_win) as payout
          from public.bets where match_id = ${matchId} and status <> 'cancelled' group by team_id) b
    where k.match_id = ${matchId} and k.team_id = b.team_id and k.stripe = 0`;
  await tx`
    insert into app.player_match_stakes (user_id, match_id, staked, team_id)
    select user_id, ${matchId}, sum(amount), min(team_id) from public.bets where match_id = ${matchId} group by user_id
    on conflict (user_id, match_id) do update set staked = excluded.staked`;
}

/**
 * A whole book at scale, for `npm run seed:big` and the list benchmark: `users` players (1% suspended,
 * 0.5% banned; every tenth with a bank account), a ledger of `ledgerRows` rows spread over the last `days`
 * days in id order (completed, pending and failed deposits, completed and pending withdrawals), one
 * "heavy" player with `heavyRows` of them, and `bets` bets of ₹1,000 on one new live match, each with its
 * bet_placed row. Balances are set from the ledger at the end, so app.reconcile() stays empty. Returns the
 * ids the benchmark needs.
 */
export async function addBigBook(sql, { users, ledgerRows, bets, heavyRows, days = 30, tag }) {
  const perUser = Math.floor((ledgerRows - bets - heavyRows) / users);
  return sql.begin(async (tx) => {
    const [match] = await tx`
      insert into public.matches (team1_id, team2_id, start_time, status, match_type, venue)
      values (1, 2, now(), 'live', 'ipl', 'Wankhede Stadium') returning id`;
    const [range] = await tx`
      with added as (
        insert into public.users (username, name, email, referral_code, status)
        select ${`big_${tag}_`} || g, 'Big Player ' || g, ${`big_${tag}_`} || g || '@example.com',
               ${`BG${tag}`} || lpad(g::text, 7, '0'),
               case when g % 200 = 7 then 'banned' when g % 100 = 3 then 'suspended' else 'active' end
        from generate_series(1, ${users}::int) g
        order by g
        returning id
      )
      select min(id)::bigint as first, max(id)::bigint as last from added`;
    await tx`
      insert into public.bank_accounts (user_id, account_holder, account_number, ifsc_code, bank_name)
      select id, 'Big Player ' || id, lpad(id::text, 12, '0'), 'SBIN0001234', 'State Bank'
      from public.users where id between ${range.first} and ${range.last} and id % 10 = 0`;
    // The history, oldest first so ids follow time: per player `perUser` rows (every fifth a withdrawal
    // for players with a bank account, a few pending or failed), plus the heavy player's deposits.
    await tx`
      insert into public.transactions (user_id, amount, type, status, reference_id, payment_method, bank_account_id, created_at)
      select h.user_id, h.amount, h.type, h.status,
             case when h.type = 'deposit' then 'REF-' || h.user_id || '-' || h.n || ${`-${tag}`} end,
             case when h.type = 'deposit' then 'upi' end, h.bank_account_id, h.created_at
      from (
        select u.id as user_id, k.n,
               case when a.id is not null and k.n % 5 = 0 then 'withdrawal' else 'deposit' end as type,
               case when a.id is not null and k.n % 5 = 0 then -500 else 2000 end as amount,
               case when k.n = ${perUser} and u.id % 13 = 0 then 'pending'
                    when k.n = ${perUser} - 1 and u.id % 17 = 0 then 'failed' else 'completed' end as status,
               case when a.id is not null and k.n % 5 = 0 then a.id end as bank_account_id,
               now() - ${days} * interval '1 day' * ((${perUser} - k.n + random()) / ${perUser}) as created_at
        from public.users u
        cross join generate_series(1, ${perUser}::int) k(n)
        left join public.bank_accounts a on a.user_id = u.id
        where u.id between ${range.first} and ${range.last}
        union all
        select ${range.first}, ${perUser} + g, 'deposit', 500, 'completed', null,
               now() - ${days} * interval '1 day' * (1 - g::float8 / ${heavyRows})
        from generate_series(1, ${heavyRows}::int) g
      ) h
      order by h.created_at`;
    await tx`
      with placed as (
        insert into public.bets (user_id, match_id, team_id, amount, odds, potential_win, status)
        select u.id, ${match.id}, case when u.id % 2 = 0 then 1 else 2 end, 1000, 3.00, 3000, 'placed'
        from public.users u
        where u.id between ${range.first} and ${range.last} and u.status = 'active'
        order by u.id
        limit ${bets}
        returning id, user_id, amount
      )
      insert into public.transactions (user_id, amount, type, status, reference_id)
      select user_id, -amount, 'bet_placed', 'completed', 'BET-' || id from placed order by id`;
    await bookFromBets(tx, match.id);
    await tx`
      update public.users u set wallet_balance = s.total
      from (select user_id, sum(amount) as total from public.transactions
            where status = 'completed' and user_id between ${range.first} and ${range.last}
            group by user_id) s
      where u.id = s.user_id`;
    await houseSideOf(tx, range);
    return { matchId: match.id, firstUserId: range.first, heavyUserId: range.first };
  });
}
