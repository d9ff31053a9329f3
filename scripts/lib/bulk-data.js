// Match-day volumes written straight into the database, for `npm run bench` (and big seeds): players with
// completed deposits and bets on one match, each bet with its bet_placed ledger row and its stake debited,
// and the match's book (app.match_book) and the players' stake totals (app.player_match_stakes) grown by
// them, so the ledger invariant holds (app.reconcile() stays empty) and books and totals equal the bets,
// exactly as if every bet had been placed through app.place_bet. Set-based SQL: 100,000 bets take seconds, not the minutes the API would need.
//
// Runs as the connection's own role (a superuser or the owner of the tables): it writes what only the app.*
// functions may write in production. Never point it at a database with real players.

/**
 * Adds `players` new players, each funded with exactly what their bets stake, and `betsPerPlayer` bets of
 * ₹1,000 each on match `matchId` (which must be upcoming or live), alternating between its two teams.
 * `tag` keeps usernames, emails and referral codes apart between calls. Returns the number of bets.
 */
export async function addPlayersWithBets(sql, { matchId, players, betsPerPlayer = 1, tag }) {
  const stake = 1000;
  const funds = stake * betsPerPlayer;
  const [match] = await sql`select team1_id, team2_id from public.matches where id = ${matchId} and status in ('upcoming', 'live')`;
  if (!match) throw new Error(`match ${matchId} does not take bets`);
  return sql.begin(async (tx) => {
    await tx`
      with funded as (
        insert into public.users (username, name, email, referral_code, wallet_balance)
        select ${`bulk_${tag}_`} || g, 'Bulk player ' || g, ${`bulk_${tag}_`} || g || '@example.com',
               ${`BK${tag}`} || lpad(g::text, 7, '0'), ${funds}
        from generate_series(1, ${players}::int) g
        returning id
      )
      insert into public.transactions (user_id, amount, type, status, reference_id, payment_method)
      select id, ${funds}, 'deposit', 'completed', 'REF-' || id || '-BULK', 'upi' from funded`;
    const [{ count }] = await tx`
      with placed as (
        insert into public.bets (user_id, match_id, team_id, amount, odds, potential_win, status)
        select u.id, ${matchId}, case when (u.id + g) % 2 = 0 then ${match.team1_id} else ${match.team2_id} end::bigint,
               ${stake}, 3.00, ${stake * 3}, 'placed'
        from public.users u cross join generate_series(1, ${betsPerPlayer}::int) g
        where u.username like ${`bulk\\_${tag}\\_%`}
        returning id, user_id, team_id, amount, potential_win
      ), booked as (
        update app.match_book k set bets = k.bets + s.bets, staked = k.staked + s.staked, payout = k.payout + s.payout
        from (select team_id, count(*) as bets, sum(amount) as staked, sum(potential_win) as payout from placed group by team_id) s
        where k.match_id = ${matchId} and k.team_id = s.team_id and k.stripe = 0
      ), player_stakes as (
        insert into app.player_match_stakes (user_id, match_id, staked)
        select user_id, ${matchId}, sum(amount) from placed group by user_id
      ), ledger as (
        insert into public.transactions (user_id, amount, type, status, reference_id)
        select user_id, -amount, 'bet_placed', 'completed', 'BET-' || id from placed
      ), debited as (
        update public.users u set wallet_balance = u.wallet_balance - s.total
        from (select user_id, sum(amount) as total from placed group by user_id) s
        where u.id = s.user_id
      )
      select count(*)::int as count from placed`;
    return count;
  });
}
