// `npm run seed:big`: a book at scale to measure the lists against — 200,000 players, 2,000,000 ledger rows
// (one heavy player with 100,000 of them) over the last 30 days, 100,000 bets on one live match — written
// set-based (scripts/lib/bulk-data.js), consistently: app.reconcile() is empty afterwards.
//
// Into DATABASE_URL when set (migrated already, e.g. `npm start`'s), else into a fresh scratch database on
// TEST_DATABASE_URL's server (default the local PostgreSQL), migrated here and kept: its URL is printed.
// Never point it at a database with real players.
import postgres from 'postgres';
import { addBigBook } from './lib/bulk-data.js';
import { pushMigrations } from './lib/migrate.js';
import { createScratchDatabase, redact } from './lib/scratch-database.js';

export const BIG_BOOK = { users: 200_000, ledgerRows: 2_000_000, bets: 100_000, heavyRows: 100_000 };

/** Fills `url` with the big book, vacuums and analyzes it and checks the ledger; returns addBigBook's ids and the book's tag. */
export async function seedBig(url, log = console.log) {
  const sql = postgres(url, {
    max: 1,
    onnotice: () => {},
    types: { bigint: { to: 20, from: [20], serialize: String, parse: Number } },
  });
  try {
    const started = Date.now();
    const tag = Date.now().toString(36);
    const ids = await addBigBook(sql, { ...BIG_BOOK, tag });
    await sql`vacuum analyze`; // as autovacuum would have by the time anyone reads the lists
    const [{ users }] = await sql`select count(*)::int as users from public.users`;
    const [{ rows }] = await sql`select count(*)::int as rows from public.transactions`;
    const [{ bets }] = await sql`select count(*)::int as bets from public.bets`;
    const broken = await sql`select * from app.reconcile()`;
    if (broken.length > 0) throw new Error(`the ledger does not reconcile for ${broken.length} users`);
    log(
      `[seed:big] ${users} users, ${rows} ledger rows, ${bets} bets in ${((Date.now() - started) / 1000).toFixed(0)} s; app.reconcile() is empty`,
    );
    return { ...ids, tag };
  } finally {
    await sql.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let url = process.env.DATABASE_URL;
  if (!url) {
    url = await createScratchDatabase(
      process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
      'cricket_big',
    );
    console.log(`[seed:big] migrating a new database: ${redact(url)}`);
    await pushMigrations(url);
  }
  await seedBig(url);
  console.log(`[seed:big] done: DATABASE_URL=${redact(url)}`);
}
