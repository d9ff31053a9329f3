// `BENCH_LISTS=1 npm run bench` (or BENCH_LISTS=only for this part alone): the lists at scale. Fills a
// scratch database with `npm run seed:big`'s book (200,000 users, 2,000,000 ledger rows, 100,000 bets on one
// match), then times, one request at a time over loopback HTTP: the first page of each admin list, a heavy
// player's transactions (100,000 rows), the searches and the dashboard statistics — p50 and p99 (targets:
// ≤ 50 ms p99 for the lists, < 100 ms for the dashboard). Last it pages through every user and through the
// heavy player's whole ledger, 200 rows a page, then through every user again, sampling the server's
// resident memory (RSS) on each page: a server that streams pages keeps it flat (the second walk of the
// users stays within what the first walks reached).
import { treeRss } from './lib/memory.js';
import { seedBig } from './seed-big.js';

const SAMPLES = Number(process.env.BENCH_LIST_SAMPLES ?? 200);

/** p50 / p99 of `SAMPLES` sequential calls (after 5 warm-up calls); fails loudly on any other status than 200. */
export async function time(name, call) {
  for (let n = 0; n < 5; n++) await call(n);
  const latencies = [];
  for (let n = 0; n < SAMPLES; n++) {
    const begin = performance.now();
    const answer = await call(n);
    latencies.push(performance.now() - begin);
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${answer.text.slice(0, 200)}`);
  }
  latencies.sort((a, b) => a - b);
  const at = (q) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1));
  return { name, samples: SAMPLES, 'p50 ms': at(0.5), 'p99 ms': at(0.99) };
}

/** Follows Link: rel="next" from `path` to the end; returns the rows seen and the RSS range. */
async function walk(get, path, pids) {
  let url = path;
  let rows = 0;
  let low = Infinity;
  let high = 0;
  while (url) {
    const answer = await get(url);
    if (answer.status !== 200) throw new Error(`walk ${url}: ${answer.status}`);
    rows += JSON.parse(answer.text).length;
    url = /<([^>]*)>;\s*rel="next"/.exec(answer.headers.link ?? '')?.[1] ?? null;
    const rss = pids.reduce((sum, pid) => sum + treeRss(pid), 0);
    low = Math.min(low, rss);
    high = Math.max(high, rss);
  }
  return { rows, low, high };
}

/**
 * The lists part of the bench. `helpers` are bench.js's: request(base, method, path, options),
 * startWorkers(script, env) → { base, pids, stop }, createScratchDatabase / dropScratchDatabase, log.
 */
export async function benchLists({
  serverUrl,
  request,
  startWorkers,
  createScratchDatabase,
  dropScratchDatabase,
  pushMigrations,
  runDeno,
  log,
}) {
  const database = await createScratchDatabase(serverUrl, 'cricket_lists');
  let api;
  try {
    await pushMigrations(database);
    log('lists: seeding 200,000 users, 2,000,000 ledger rows, 100,000 bets …');
    const { matchId, heavyUserId, tag } = await seedBig(database, log);
    const password = `lists-${Date.now()}`;
    await runDeno('scripts/admin.ts', [], {
      DATABASE_URL: database,
      ADMIN_USERNAME: 'lists_admin',
      ADMIN_PASSWORD: password,
      ADMIN_MFA: 'optional',
    });
    api = await startWorkers('scripts/local-server.ts', {
      DATABASE_URL: database,
      PAYMENT_SANDBOX: 'false',
      TRUST_PROXY_HOPS: '1',
    });
    const login = await request(api.base, 'POST', '/api/login', {
      headers: { 'x-forwarded-for': '10.254.0.1' },
      body: { username: 'lists_admin', password },
    });
    const cookie = login.headers['set-cookie'][0].split(';')[0];
    const get = (path) => request(api.base, 'GET', path, { cookie });

    log('lists: first pages, searches, dashboard …');
    const results = [];
    const reads = [
      ['admin users, first page', () => '/api/admin/users'],
      ['admin users, Suspended tab', () => '/api/admin/users?status=suspended'],
      ['admin users, search by name', (n) => `/api/admin/users?q=${encodeURIComponent(`Player ${1000 + n * 97}`)}`],
      ['admin users, search by email fragment', (n) => `/api/admin/users?q=_${100 + n}@exa`],
      ['admin users, tab counts', () => '/api/admin/users/counts'],
      ['admin transactions, first page', () => '/api/admin/transactions'],
      ['admin transactions, pending withdrawals', () => '/api/admin/transactions?type=withdrawal&status=pending'],
      ['admin transactions, deposits', () => '/api/admin/transactions?type=deposit'],
      ['admin transactions, search by user id (heavy)', () => `/api/admin/transactions?q=${heavyUserId}`],
      [
        'admin transactions, search by reference',
        (n) => `/api/admin/transactions?q=REF-${heavyUserId + 1 + n}-1-${tag}`,
      ],
      ['admin transactions, pending counts', () => '/api/admin/transactions/counts'],
      ["heavy player's transactions (admin tab)", () => `/api/admin/users/${heavyUserId}/transactions`],
      ["heavy player's wallet page (?userId=)", () => `/api/wallet/transactions?userId=${heavyUserId}&limit=10`],
      ['match bets (100,000), first page', () => `/api/admin/bets/match/${matchId}`],
      ['dashboard statistics', () => '/api/admin/dashboard/stats'],
    ];
    for (const [name, path] of reads) results.push(await time(name, (n) => get(path(n))));

    log("lists: paging through every user and the heavy player's ledger, sampling RSS …");
    const before = api.pids.reduce((sum, pid) => sum + treeRss(pid), 0);
    const users = await walk(get, '/api/admin/users?limit=200', api.pids);
    const ledger = await walk(get, `/api/admin/users/${heavyUserId}/transactions?limit=200`, api.pids);
    // the same walk again: memory that is flat stays in the range the first walks reached
    const usersAgain = await walk(get, '/api/admin/users?limit=200', api.pids);

    console.table(results);
    const lists = results.filter((row) => row.name !== 'dashboard statistics');
    const worst = lists.reduce((a, b) => (a['p99 ms'] >= b['p99 ms'] ? a : b));
    const dashboard = results.find((row) => row.name === 'dashboard statistics');
    console.log(`lists: worst p99 ${worst['p99 ms']} ms (${worst.name})  (target ≤ 50 ms)`);
    console.log(
      `dashboard statistics: p50 ${dashboard['p50 ms']} ms, p99 ${dashboard['p99 ms']} ms  (target < 100 ms)`,
    );
    console.log(
      `server RSS while paging: ${before.toFixed(0)} MiB before; ${users.rows} users: ${users.low.toFixed(0)}–${users.high.toFixed(0)} MiB; ` +
        `${ledger.rows} ledger rows: ${ledger.low.toFixed(0)}–${ledger.high.toFixed(0)} MiB; ` +
        `the users again: ${usersAgain.low.toFixed(0)}–${usersAgain.high.toFixed(0)} MiB`,
    );
  } finally {
    await api?.stop();
    await dropScratchDatabase(serverUrl, database).catch(() => {});
  }
}
