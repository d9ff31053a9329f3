// `npm run bench`: what the stack costs on this machine, against anchors measured in the same run on the
// same PostgreSQL server (our machines are noisy: compare the ratios, not the absolute numbers).
//
//   anchor  pgbench TPC-B (16 clients) on its own scratch database at scale 10 (ten branch rows: the bets' anchor)
//           and at its default scale 1 (all 16 clients queue on one branch row; an extra row)
//   anchor  the floor: Deno + Hono + postgres.js answering the live-match list with ONE query (scripts/bench-floor.ts)
//   anchor  the settlement floor: the rows a settlement writes, on plain tables with no rule (scripts/bench-settlement-floor.js)
//   reads   GET /api/matches?status=live (signed-in), GET /api/user, GET /api/bets — the real server, 16 connections
//   bets    POST /api/bets from funded players, 16 at a time: rate, p50/p95/p99; every 201 stored, ledger reconciles;
//           then app.place_bet alone in SQL (pgbench running it from 2 sessions, as the claims of 64 players)
//   settle  PATCH declare-winner / abandon on matches with 100,000 bets each (100,000 players, one bet each): the
//           answer, the last bet settled by the workers, 16 players of that match betting meanwhile at a
//           player's pace; declare-winner on 100,000 bets by 300 players; before each declare-winner, the
//           floor's writes on our own tables (no rule, rolled back): what the tables themselves cost
//           (scripts/bench-settlement.js; BENCH_SETTLE_MILLION=1 adds a match of 1,000,000 bets)
//   lists   with BENCH_LISTS=1 (or =only for this part alone): the lists at 2,000,000 ledger rows (scripts/bench-lists.js)
//   books   with BENCH_BOOKS=1 (or =only): the house's books for a month of 200,000 players' activity (scripts/bench-books.js)
//   live    with BENCH_LIVE=1 (or =only): 1,000 SSE subscribers of one match, an update a second (scripts/bench-live.js)
//   memory  with BENCH_MEMORY=1 (or =only): the workers' RSS under 5 minutes of mixed load, and the heap
//           limit's cost in throughput (scripts/bench-memory.js)
//   crowd   with BENCH_CROWD=1 (or =only): thousands of viewers polling one match straight at the server and
//           through a shared cache (nginx proxy_cache), and 10,000 live streams (scripts/bench-crowd.js)
//
// Everything runs against fresh scratch databases on TEST_DATABASE_URL's server (default the local
// PostgreSQL), dropped afterwards. BENCH_SECONDS (default 10) is the length of each timed load;
// API_WORKERS (default: one per core, as `npm start` runs) the server processes of both the API and the floor.
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import postgres from 'postgres';
import { benchBooks } from './bench-books.js';
import { benchCrowd } from './bench-crowd.js';
import { benchLists } from './bench-lists.js';
import { benchLive } from './bench-live.js';
import { benchMemory } from './bench-memory.js';
import { benchSettlement, FEW_PLAYERS } from './bench-settlement.js';
import { settlementFloor } from './bench-settlement-floor.js';
import { cpuMeter } from './lib/cpu.js';
import { runDeno, startDeno } from './lib/deno.js';
import { pushMigrations } from './lib/migrate.js';
import { freePort, waitForOk } from './lib/processes.js';
import { createScratchDatabase, dropScratchDatabase } from './lib/scratch-database.js';

const CONCURRENCY = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WORKERS = Number(process.env.API_WORKERS ?? availableParallelism());
const PLAYERS = 64;
const SETTLEMENT_BETS = 100_000;

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const secret = randomBytes(16).toString('hex');
const adminPassword = randomBytes(12).toString('base64url');
/** The bench plays the static host in front of the API: its requests show this, so X-Forwarded-For counts. */
const proxySecret = randomBytes(16).toString('hex');
const log = (message) => console.log(`[bench] ${message}`);

/**
 * pgbench for SECONDS on `database` with `clients` clients (two threads), its default script (TPC-B) or the
 * script `script`: transactions/s and p99 latency.
 */
function runPgbench(database, { clients = CONCURRENCY, script } = {}) {
  const logs = mkdtempSync(join(tmpdir(), 'cricket-pgbench-'));
  try {
    const scriptArgs = [];
    if (script) {
      writeFileSync(join(logs, 'script.sql'), script);
      scriptArgs.push('-n', '-f', join(logs, 'script.sql'));
    }
    const output = execFileSync(
      'pgbench',
      [
        ...scriptArgs,
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(SECONDS),
        '-l',
        `--log-prefix=${join(logs, 'tx')}`,
        database,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // one line per transaction: client, number, latency (µs), …
    const latencies = readdirSync(logs)
      .filter((file) => file.startsWith('tx'))
      .flatMap((file) => readFileSync(join(logs, file), 'utf8').trim().split('\n'))
      .map((line) => Number(line.split(' ')[2]))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const p99 = latencies[Math.floor(0.99 * (latencies.length - 1))] / 1000;
    const failed = Number(/failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(output)[1]);
    return { tps: Number(/tps = ([\d.]+)/.exec(output)[1]), p99: Number(p99.toFixed(1)), transactions, failed };
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
}

/**
 * pgbench's TPC-B at `scale` (branch rows) with 16 clients, on a scratch database of its own that is filled
 * now: `run()` times it (as near as possible to the load it anchors, on a machine whose other load varies),
 * `drop()` removes it.
 */
async function tpcbAt(scale) {
  const database = await createScratchDatabase(serverUrl, 'cricket_pgbench');
  execFileSync('pgbench', ['-i', '-q', '-s', String(scale), database], { stdio: 'ignore' });
  return { run: () => runPgbench(database), drop: () => dropScratchDatabase(serverUrl, database) };
}

/**
 * Starts `workers` (default WORKERS) processes of a Deno server on one port; resolves with the base URL and a
 * stop. The API's workers run with the heap limit `npm start` gives them (or `heapMb`), unless `heapLimit`
 * is false; their log lines go to `onLog` if given, else nowhere.
 */
async function startWorkers(script, env, { heapLimit = true, heapMb, workers = WORKERS, onLog } = {}) {
  const port = await freePort();
  const worker = script === 'scripts/local-server.ts' && heapLimit;
  const processes = Array.from({ length: workers }, () =>
    startDeno(
      script,
      { ...env, PROXY_SECRET: proxySecret, PORT: String(port) },
      { quiet: true, piped: Boolean(onLog), worker, heapMb },
    ),
  );
  if (onLog) for (const child of processes) createInterface({ input: child.stdout }).on('line', onLog);
  const base = `http://127.0.0.1:${port}`;
  await waitForOk(`${base}${script.includes('floor') ? '/api/matches' : '/api/health'}`);
  return {
    base,
    pids: processes.map((child) => child.pid),
    stop: () =>
      Promise.all(
        processes.map(
          (child) =>
            new Promise((resolve) => {
              child.once('exit', resolve);
              child.stdin.end();
              child.kill('SIGTERM');
            }),
        ),
      ),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One HTTP request over the shared keep-alive agent; resolves with status and body text. */
function request(base, method, path, { cookie, body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          'x-proxy-secret': proxySecret,
          ...(cookie ? { cookie } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/**
 * Runs `call` from CONCURRENCY loops for SECONDS; counts answers with `ok` statuses, their latencies and body
 * sizes, and the CPU its server's workers (`pids`) and the database's backends spent per request
 * (scripts/lib/cpu.js).
 */
async function load(name, call, { ok = [200], pids } = {}) {
  const latencies = [];
  let failed = 0;
  let n = 0;
  let bytes = 0;
  const cpu = await cpuMeter(sql, pids);
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        const answer = await call(n++).catch(() => ({ status: 0 }));
        latencies.push(performance.now() - begin);
        bytes += Buffer.byteLength(answer.text ?? '');
        if (!ok.includes(answer.status)) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = await cpu.stop();
  latencies.sort((a, b) => a - b);
  const at = (q) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1));
  const perRequest = (cpuSeconds) => Number(((cpuSeconds * 1000) / latencies.length).toFixed(2));
  return {
    name,
    requests: latencies.length,
    failed,
    'req/s': Math.round((latencies.length - failed) / seconds),
    'p50 ms': at(0.5),
    'p95 ms': at(0.95),
    'p99 ms': at(0.99),
    'server CPU ms/req': perRequest(used.server),
    'database CPU ms/req': perRequest(used.database),
    'body bytes': Math.round(bytes / latencies.length),
    'load average': Number(loadavg()[0].toFixed(2)),
  };
}

/** A signed-in player: registers (its own client IP: per-address limits), funds `deposits` × ₹100,000. */
async function newPlayer(base, n, deposits) {
  const ip = { 'x-forwarded-for': `10.1.${n >> 8}.${n & 255}` };
  const username = `bench${n}_${process.pid}`;
  const registered = await request(base, 'POST', '/api/register', {
    headers: ip,
    body: { name: `Bench ${n}`, username, email: `${username}@example.com`, password: 'bench-pass-1' },
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
  const cookie = registered.headers['set-cookie'][0].split(';')[0];
  for (let d = 0; d < deposits; d++) {
    const reference = `REF-${Date.now()}${n}${d}-BNCH`;
    await request(base, 'POST', '/api/wallet/deposit', {
      cookie,
      headers: ip,
      body: { amount: 100_000, paymentMethod: 'upi', reference },
    });
    const raw = JSON.stringify({ reference, amount: 100_000, status: 'success', gateway_txn_id: `GW-${reference}` });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
    const hook = await request(base, 'POST', '/api/payments/webhook', {
      body: raw,
      headers: { 'x-timestamp': timestamp, 'x-signature': signature },
    });
    if (hook.status !== 200) throw new Error(`webhook: ${hook.status} ${hook.text}`);
  }
  return cookie;
}

/**
 * app.place_bet alone in SQL: pgbench calls it from 2 sessions for SECONDS, each transaction as one of the
 * bets part's 64 players (its claims set as app.authenticate sets them), on a new live match, each player on
 * one side. Nothing of the HTTP path: what the bet's rules cost the database by themselves. The players are
 * funded for it through the posting function first. Resolves with bets/s, p99 and whether every bet is stored.
 */
async function placeBetAlone(sql, databaseUrl, base, admin) {
  const match = JSON.parse(
    (
      await request(base, 'POST', '/api/admin/matches', {
        cookie: admin,
        body: { team1_id: 1, team2_id: 2, start_time: new Date().toISOString(), match_type: 't20' },
      })
    ).text,
  );
  await request(base, 'PATCH', `/api/admin/matches/${match.id}/start`, { cookie: admin });
  // the bets part's players registered together: their ids are consecutive
  const [ids] = await sql`
    select min(id)::int as first, max(id)::int as last, count(*)::int as count
    from public.users where username like ${`bench%\\_${process.pid}`}`;
  if (ids.last - ids.first + 1 !== ids.count)
    throw new Error(`bench players' ids are not consecutive: ${JSON.stringify(ids)}`);
  await sql`
    select count(*) from app.post_transfers((
      select array_agg(app.ledger_row(id, 'deposit', 100000000, 'completed', 'REF-SQL-' || id || '-BNCH', 'upi'))
      from public.users where id between ${ids.first} and ${ids.last}))`;
  const result = runPgbench(databaseUrl, {
    clients: 2,
    script: `\\set uid random(${ids.first}, ${ids.last})
\\set team 1 + :uid % 2
begin;
select set_config('request.jwt.claims', '{"role": "authenticated", "user_id": ' || :uid || '}', true);
select id from app.place_bet(${match.id}, :team, 1000);
commit;
`,
  });
  const [{ stored }] = await sql`select count(*)::int as stored from public.bets where match_id = ${match.id}`;
  return { ...result, stored, loadAverage: Number(loadavg()[0].toFixed(2)) };
}

async function reconciles(sql) {
  const [{ count }] = await sql`select count(*)::int as count from app.reconcile()`;
  const [{ books }] = await sql`
    select ((select count(*) from app.reconcile_books()) + (select count(*) from app.reconcile_player_stakes()))::int as books`;
  if (count !== 0 || books !== 0) process.exitCode = 1;
  return (
    (count === 0 ? 'every balance equals its ledger' : `${count} users do NOT reconcile`) +
    (books === 0
      ? ', every match book and stake total equals its bets'
      : `, ${books} books or stake totals do NOT equal their bets`)
  );
}

const parts = {
  serverUrl,
  request,
  startWorkers,
  createScratchDatabase,
  dropScratchDatabase,
  pushMigrations,
  runDeno,
  log,
};
const lists = () => benchLists(parts);
const books = () => benchBooks(parts);
const live = () => benchLive(parts);
const memory = () => benchMemory(parts);
const crowd = () => benchCrowd(parts);
if (
  [
    process.env.BENCH_LISTS,
    process.env.BENCH_BOOKS,
    process.env.BENCH_LIVE,
    process.env.BENCH_MEMORY,
    process.env.BENCH_CROWD,
  ].includes('only')
) {
  if (process.env.BENCH_LISTS) await lists();
  if (process.env.BENCH_BOOKS) await books();
  if (process.env.BENCH_LIVE) await live();
  if (process.env.BENCH_MEMORY) await memory();
  if (process.env.BENCH_CROWD) await crowd();
  agent.destroy();
  process.exit();
}

log(`${WORKERS} server process(es), ${CONCURRENCY} concurrent connections, ${SECONDS} s per load`);
const benchStarted = performance.now();
log(
  `load average at the start: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')}`,
);
log('pgbench TPC-B: filling its databases at scale 10 and at scale 1 …');
const tpcbs = [await tpcbAt(10), await tpcbAt(1)];
const database = await createScratchDatabase(serverUrl, 'cricket_bench');
const sql = postgres(database, { max: 2, onnotice: () => {} });
const running = [];
try {
  await pushMigrations(database);
  await runDeno('scripts/admin.ts', [], {
    DATABASE_URL: database,
    ADMIN_USERNAME: 'bench_admin',
    ADMIN_PASSWORD: adminPassword,
    ADMIN_MFA: 'optional',
  });
  const poolPerWorker = String(Math.max(2, Math.floor(40 / WORKERS)));
  const api = await startWorkers('scripts/local-server.ts', {
    DATABASE_URL: database,
    DATABASE_POOL_MAX: poolPerWorker,
    PAYMENT_SANDBOX: 'false',
    PAYMENT_GATEWAY_URL: 'https://gateway.invalid/pay',
    PAYMENT_WEBHOOK_SECRET: secret,
    TRUST_PROXY_HOPS: '1',
  });
  running.push(api);
  const floor = await startWorkers('scripts/bench-floor.ts', {
    DATABASE_URL: database,
    DATABASE_POOL_MAX: poolPerWorker,
  });
  running.push(floor);

  log(`setting up ${PLAYERS} funded players and a live match …`);
  const login = await request(api.base, 'POST', '/api/login', {
    headers: { 'x-forwarded-for': '10.255.0.1' },
    body: { username: 'bench_admin', password: adminPassword },
  });
  const admin = login.headers['set-cookie'][0].split(';')[0];
  const match = JSON.parse(
    (
      await request(api.base, 'POST', '/api/admin/matches', {
        cookie: admin,
        body: {
          team1_id: 1,
          team2_id: 2,
          start_time: new Date().toISOString(),
          match_type: 't20',
          venue: 'Bench Oval',
        },
      })
    ).text,
  );
  await request(api.base, 'PATCH', `/api/admin/matches/${match.id}/start`, { cookie: admin });
  // The house-risk limits still run on every bet, but are set where 16 loops of ₹1,000 bets never reach them;
  // nobody updates the bench's live scores, so their bets must not pause for a quiet feed.
  const limits = await request(api.base, 'PUT', '/api/admin/settings', {
    cookie: admin,
    body: {
      max_stake_per_player_match: 1_000_000_000,
      max_liability_per_match: 1_000_000_000,
      live_feed_stale_seconds: null,
    },
  });
  if (limits.status !== 200) throw new Error(`settings: ${limits.status} ${limits.text}`);
  const players = await Promise.all(Array.from({ length: PLAYERS }, (_, n) => newPlayer(api.base, n, 3)));
  const player = (n) => players[n % PLAYERS];

  log('reads …');
  const results = [];
  results.push(
    await load('floor: one query', () => request(floor.base, 'GET', '/api/matches?status=live'), {
      pids: floor.pids,
    }),
  );
  results.push(
    await load(
      'GET /api/matches?status=live (signed in)',
      (n) => request(api.base, 'GET', '/api/matches?status=live', { cookie: player(n) }),
      { pids: api.pids },
    ),
  );
  results.push(
    await load(
      '… with Cache-Control: no-cache (the database path)',
      (n) =>
        request(api.base, 'GET', '/api/matches?status=live', {
          cookie: player(n),
          headers: { 'cache-control': 'no-cache' },
        }),
      { pids: api.pids },
    ),
  );
  results.push(
    await load('GET /api/user', (n) => request(api.base, 'GET', '/api/user', { cookie: player(n) }), {
      pids: api.pids,
    }),
  );
  log('pgbench TPC-B at scale 10, then bets, then TPC-B at scale 1 …');
  const tpcb = tpcbs[0].run();
  results.push(
    await load(
      'POST /api/bets',
      (n) =>
        request(api.base, 'POST', '/api/bets', {
          cookie: player(n),
          body: { match_id: match.id, team_id: 1 + (n % 2), amount: 1000 },
        }),
      { ok: [201], pids: api.pids },
    ),
  );
  const bets = results.at(-1);
  const tpcb1 = tpcbs[1].run();
  results.push(
    await load(
      "GET /api/bets (the player's bets)",
      (n) => request(api.base, 'GET', '/api/bets', { cookie: player(n) }),
      { pids: api.pids },
    ),
  );
  const [{ stored }] = await sql`select count(*)::int as stored from public.bets where match_id = ${match.id}`;
  const betsAddUp = stored === bets.requests - bets.failed;
  if (!betsAddUp) process.exitCode = 1;
  const alone = await placeBetAlone(sql, database, api.base, admin);
  const afterBets = await reconciles(sql);
  await floor.stop();
  running.splice(running.indexOf(floor), 1);

  log('settlement floor: the same writes on plain tables, in one transaction …');
  const settleFloor = await settlementFloor(parts, SETTLEMENT_BETS, {
    players: FEW_PLAYERS,
    betsPerPlayer: Math.ceil(SETTLEMENT_BETS / FEW_PLAYERS),
  });
  const settlement = await benchSettlement({
    ...parts,
    sql,
    api,
    admin,
    newPlayer,
    bets: SETTLEMENT_BETS,
    floor: settleFloor,
    betCpu: { server: bets['server CPU ms/req'], database: bets['database CPU ms/req'] },
  });
  const afterSettlement = await reconciles(sql);

  console.table(results);
  const rate = (name) => results.find((result) => result.name.startsWith(name))['req/s'];
  const floorRate = rate('floor');
  console.log(
    `pgbench TPC-B (${CONCURRENCY} clients): scale 10 ${Math.round(tpcb.tps)} tps, p99 ${tpcb.p99} ms; ` +
      `scale 1 ${Math.round(tpcb1.tps)} tps, p99 ${tpcb1.p99} ms`,
  );
  console.log(
    `reads ÷ floor: matches list ${(rate('GET /api/matches') / floorRate).toFixed(2)} (from memory), ` +
      `${(rate('… with Cache-Control') / floorRate).toFixed(2)} (database), GET /api/user ${(rate('GET /api/user') / floorRate).toFixed(2)}`,
  );
  console.log(
    `bets stored: ${stored} of ${bets.requests - bets.failed} answered 201 (${betsAddUp ? 'all' : 'MISMATCH'}); ` +
      `app.place_bet alone: ${alone.stored} stored of ${alone.transactions} (${alone.stored === alone.transactions && alone.failed === 0 ? 'all' : 'MISMATCH'}); ledger after bets: ${afterBets}`,
  );
  if (alone.stored !== alone.transactions || alone.failed > 0) process.exitCode = 1;
  for (const line of settlement.lines) console.log(line);
  console.log(`ledger after settlement: ${afterSettlement}`);
  const { declared, few, floor: sf } = settlement.figures;
  const ratio = (a, b) => (a / b).toFixed(2);
  console.log("\nissue 34's table, this run (each figure with its anchor measured in the same run):");
  console.table([
    {
      measure: 'POST /api/bets ÷ pgbench TPC-B at scale 10 (16 clients)',
      result: `${ratio(bets['req/s'], tpcb.tps)} (${bets['req/s']} bets/s vs ${Math.round(tpcb.tps)} tps)`,
      target: '≥ 0.5',
    },
    {
      measure: '… ÷ pgbench TPC-B at scale 1 (extra)',
      result: `${ratio(bets['req/s'], tpcb1.tps)} (${Math.round(tpcb1.tps)} tps)`,
      target: '',
    },
    {
      measure: 'bet p99',
      result: `${bets['p99 ms']} ms (p50 ${bets['p50 ms']} ms; TPC-B s10 p99 ${tpcb.p99} ms)`,
      target: '≤ 50 ms',
    },
    {
      measure: 'app.place_bet alone in SQL, 2 sessions',
      result: `${Math.round(alone.tps)} bets/s = ${ratio(alone.tps, tpcb.tps)} × TPC-B s10 (p99 ${alone.p99} ms)`,
      target: '',
    },
    {
      measure: `${few.bets.toLocaleString('en')} bets by ${FEW_PLAYERS} players: declare → last bet settled`,
      result: `${Math.round(few.settledMs)} ms = ${ratio(few.settledMs, sf.declareFew)} × floor (${Math.round(sf.declareFew)} ms); declare answered in ${Math.round(few.answerMs)} ms`,
      target: '≤ 1,500 ms, ≤ 1.0',
    },
    {
      measure: `${declared.bets.toLocaleString('en')} bets by as many players: last bet ÷ one-transaction floor`,
      result: `${ratio(declared.settledMs, sf.declare)} (${Math.round(declared.settledMs)} ms vs ${Math.round(sf.declare)} ms)`,
      target: '≤ 1.0',
    },
    {
      measure: "… the floor's writes on our own tables, no rule (extra)",
      result: `${ratio(declared.bareMs, sf.declare)} × floor (${Math.round(declared.bareMs)} ms); by ${FEW_PLAYERS} players ${ratio(few.bareMs, sf.declareFew)} × (${Math.round(few.bareMs)} ms)`,
      target: '',
    },
    { measure: 'the same: declare answer', result: `${Math.round(declared.answerMs)} ms`, target: '≤ 300 ms' },
    {
      measure: 'the same: 16 of its players betting on another match meanwhile, one bet every 320 ms each, p99',
      result: `${declared.alongside.p99} ms (p50 ${declared.alongside.p50} ms, ${declared.alongside.bets} bets, ${declared.alongside.failed} failed)`,
      target: '≤ 100 ms',
    },
    {
      measure: 'signed-in GET /api/matches?status=live ÷ the one-query floor',
      result: `${ratio(rate('GET /api/matches'), floorRate)} (${rate('GET /api/matches')} vs ${floorRate} req/s)`,
      target: '≥ 0.8',
    },
  ]);
  console.log(
    `bench took ${Math.round((performance.now() - benchStarted) / 1000)} s; load average at the end: ` +
      loadavg()
        .map((n) => n.toFixed(2))
        .join(', '),
  );
  if (process.env.BENCH_LISTS) await lists();
  if (process.env.BENCH_BOOKS) await books();
  if (process.env.BENCH_LIVE) await live();
  if (process.env.BENCH_MEMORY) await memory();
  if (process.env.BENCH_CROWD) await crowd();
} finally {
  await Promise.all(running.map((server) => server.stop()));
  await Promise.all(tpcbs.map((tpcb) => tpcb.drop()));
  agent.destroy();
  await sql.end();
  await dropScratchDatabase(serverUrl, database).catch(() => {});
}
