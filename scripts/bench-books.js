// `BENCH_BOOKS=1 npm run bench` (or BENCH_BOOKS=only for this part alone): the house's books at scale. Fills a
// scratch database with a month of 200,000 players' activity — `npm run seed:big`'s book (2,000,000 ledger
// rows over the last 30 days, 100,000 bets on one match) and a match a day settled through the real
// settlement (the big match and 29 of 2,000 bets each, each declared on a day of the month: its run's start
// is moved back to that day before its batches run, so its line and its house result fall on that day) —
// then times GET /api/admin/books and /api/admin/books.csv for the month and for a year, one request at a
// time over loopback HTTP: p50 and p99 (target ≤ 100 ms). Checks that the matches and the days of the
// month's answer add up to the same house result and that app.reconcile() is empty.
import postgres from 'postgres';
import { addPlayersWithBets } from './lib/bulk-data.js';
import { time } from './bench-lists.js';
import { seedBig } from './seed-big.js';

const DAYS = 30;
const SMALL_MATCH_PLAYERS = 2000;

/** YYYY-MM-DD of the IST day `days` from today. */
const istDay = (days = 0) =>
  new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });

/** Declares `matchId` won by its first team as if on the day `daysAgo` before today, and settles it to the end. */
async function settleOnDay(sql, matchId, daysAgo) {
  await sql`select app.start_settlement(m, m.team1_id, 'bench') from public.matches m where m.id = ${matchId}`;
  await sql`update app.settlement_runs set created_at = created_at - ${daysAgo} * interval '1 day' where match_id = ${matchId}`;
  while ((await sql`select app.settle_step() as step`)[0].step !== 'idle');
}

/** The books part of the bench; `helpers` are bench.js's (see bench-lists.js). */
export async function benchBooks({
  serverUrl,
  request,
  startWorkers,
  createScratchDatabase,
  dropScratchDatabase,
  pushMigrations,
  runDeno,
  log,
}) {
  const database = await createScratchDatabase(serverUrl, 'cricket_books');
  const sql = postgres(database, { max: 1, onnotice: () => {} });
  let api;
  try {
    await pushMigrations(database);
    log('books: seeding 200,000 players, 2,000,000 ledger rows over 30 days, 100,000 bets …');
    const { matchId } = await seedBig(database, log);
    log(
      `books: settling a match a day for ${DAYS} days (the big one and ${DAYS - 1} of ${SMALL_MATCH_PLAYERS} bets) …`,
    );
    await settleOnDay(sql, matchId, DAYS - 1);
    for (let day = DAYS - 2; day >= 0; day--) {
      const [match] = await sql`
        insert into public.matches (team1_id, team2_id, start_time, status, match_type, venue)
        values (1 + ${day} % 10, 1 + (${day} + 1) % 10, now() - ${day} * interval '1 day', 'live', 't20', 'Bench Oval')
        returning id`;
      await addPlayersWithBets(sql, { matchId: match.id, players: SMALL_MATCH_PLAYERS, tag: `books${day}` });
      await settleOnDay(sql, match.id, day);
    }
    await sql`vacuum analyze`;
    const broken = await sql`select * from app.reconcile()`;
    if (broken.length > 0) throw new Error(`books: app.reconcile() lists ${broken.length} problems`);

    const password = `books-${Date.now()}`;
    await runDeno('scripts/admin.ts', [], {
      DATABASE_URL: database,
      ADMIN_USERNAME: 'books_admin',
      ADMIN_PASSWORD: password,
      ADMIN_MFA: 'optional',
    });
    api = await startWorkers('scripts/local-server.ts', {
      DATABASE_URL: database,
      PAYMENT_SANDBOX: 'false',
      TRUST_PROXY_HOPS: '1',
    });
    const login = await request(api.base, 'POST', '/api/login', {
      headers: { 'x-forwarded-for': '10.253.0.1' },
      body: { username: 'books_admin', password },
    });
    const cookie = login.headers['set-cookie'][0].split(';')[0];
    const get = (path) => request(api.base, 'GET', path, { cookie });
    const month = `from=${istDay(-(DAYS - 1))}&to=${istDay()}`;
    const year = `from=${istDay(-365)}&to=${istDay()}`;

    const books = JSON.parse((await get(`/api/admin/books?${month}`)).text);
    const sum = (rows) => rows.reduce((total, row) => total + row.house_result, 0);
    const addsUp = books.matches.length === DAYS && sum(books.matches) === sum(books.days);
    if (!addsUp) process.exitCode = 1;

    log('books: timing the month and the year …');
    const results = [];
    results.push(await time('GET /api/admin/books, a month', () => get(`/api/admin/books?${month}`)));
    results.push(await time('GET /api/admin/books.csv, a month', () => get(`/api/admin/books.csv?${month}`)));
    results.push(await time('GET /api/admin/books, 366 days', () => get(`/api/admin/books?${year}`)));
    console.table(results);
    const worst = results.reduce((a, b) => (a['p99 ms'] >= b['p99 ms'] ? a : b));
    console.log(
      `books: ${books.matches.length} match lines and ${books.days.length} days in the month, house result ` +
        `₹${books.totals.house_result} (${addsUp ? 'the matches and the days add up' : 'MISMATCH'}); ` +
        `worst p99 ${worst['p99 ms']} ms (${worst.name})  (target ≤ 100 ms)`,
    );
  } finally {
    await api?.stop();
    await sql.end();
    await dropScratchDatabase(serverUrl, database).catch(() => {});
  }
}
