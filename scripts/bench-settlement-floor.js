// The settlement's anchor for `npm run bench`: what PostgreSQL takes, on this machine and in this run, to
// write the rows a settlement of 100,000 bets writes, with none of the rules around them. Plain tables
// shaped like ours (a ledger with its primary key, (user_id, id) and a unique reference; bets read by match;
// narrow wallets at fillfactor 45, so every credit is a HOT update as it is for users): one transaction
// inserts a ledger row per bet, credits the wallets from one aggregate and updates every bet. No row lock,
// foreign key, CHECK, trigger or RLS, and none of the users' width. Settlement ÷ this floor is the price of
// the rules, comparable between machines where the seconds are not.
import postgres from 'postgres';

const SCHEMA = `
  create table wallets (id bigint primary key, balance bigint not null) with (fillfactor = 45);
  create table bets (
    id bigint generated always as identity primary key, match_id bigint not null, user_id bigint not null,
    team_id bigint not null, amount bigint not null, potential_win bigint not null, status text not null,
    settled_at timestamptz
  ) with (fillfactor = 50);
  create index on bets (match_id);
  create table ledger (
    id bigint generated always as identity primary key, user_id bigint not null, amount bigint not null,
    type text not null, reference text not null, created_at timestamptz not null default now()
  );
  create index on ledger (user_id, id);
  create unique index on ledger (type, reference);`;

/**
 * Match 1, 2, … of `matches` ({ players, betsPerPlayer }): wallets of their own, ₹1,000 bets, each player on
 * one team (alternating 1 and 2 from player to player); a deposit row per player and a ledger row per bet.
 */
async function fill(sql, matches) {
  await sql.unsafe(SCHEMA);
  let first = 1;
  for (const [index, { players, betsPerPlayer }] of matches.entries()) {
    const last = first + players - 1;
    await sql`insert into wallets select g, 0 from generate_series(${first}::int, ${last}::int) g`;
    await sql`
      insert into bets (match_id, user_id, team_id, amount, potential_win, status)
      select ${index + 1}, g, 1 + g % 2, 1000, 3000, 'placed'
      from generate_series(${first}::int, ${last}::int) g cross join generate_series(1, ${betsPerPlayer}::int) k`;
    first = last + 1;
  }
  await sql`
    insert into ledger (user_id, amount, type, reference)
    select id, 1000, 'deposit', 'REF-' || id from wallets
    union all select user_id, -amount, 'bet_placed', 'BET-' || id from bets`;
  await sql`vacuum analyze`;
}

/** One settlement's writes on match `matchId`: with `winner`, winners credited ×3; without, every stake back. */
async function settle(sql, matchId, winner) {
  const started = performance.now();
  await sql.begin(async (tx) => {
    await tx`
      insert into ledger (user_id, amount, type, reference)
      select user_id,
             case when ${winner}::bigint is null then amount when team_id = ${winner} then potential_win else 0 end,
             case when ${winner}::bigint is null then 'bet_refund' when team_id = ${winner} then 'bet_won' else 'bet_lost' end,
             'BET-' || id
      from bets where match_id = ${matchId} and status = 'placed'`;
    await tx`
      update wallets w set balance = w.balance + c.total
      from (select user_id, sum(case when ${winner}::bigint is null then amount else potential_win end) as total
            from bets
            where match_id = ${matchId} and status = 'placed' and (${winner}::bigint is null or team_id = ${winner})
            group by user_id) c
      where w.id = c.user_id`;
    await tx`
      update bets set status = case when ${winner}::bigint is null then 'cancelled' when team_id = ${winner} then 'won' else 'lost' end,
                      settled_at = now()
      where match_id = ${matchId} and status = 'placed'`;
  });
  return performance.now() - started;
}

/**
 * Milliseconds of the floor of a declare-winner and of an abandon with `players` bets each (one a player), and
 * of a declare-winner of `few.players` players with `few.betsPerPlayer` bets each (`declareFew`), measured on
 * a scratch database of `serverUrl`'s server that is dropped afterwards.
 */
export async function settlementFloor({ serverUrl, createScratchDatabase, dropScratchDatabase }, players, few) {
  const database = await createScratchDatabase(serverUrl, 'cricket_settle_floor');
  // 64 MB of work_mem, as app.settle_bets has
  const sql = postgres(database, { max: 1, onnotice: () => {}, connection: { work_mem: '64MB' } });
  try {
    await fill(sql, [{ players, betsPerPlayer: 1 }, { players, betsPerPlayer: 1 }, few]);
    return {
      declare: await settle(sql, 1, 1),
      abandon: await settle(sql, 2, null),
      declareFew: await settle(sql, 3, 1),
    };
  } finally {
    await sql.end();
    await dropScratchDatabase(serverUrl, database);
  }
}
