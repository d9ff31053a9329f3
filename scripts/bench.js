// `npm run bench`: how fast the real stack is on this machine — Deno API + PostgreSQL, over HTTP on
// loopback only. A fresh database on TEST_DATABASE_URL's server (default 127.0.0.1:5432), dropped after.
// Every load is bounded in count; nothing here is a pass/fail test (budgets live in your judgement).
//
//   GET  /api/matches?status=live   anonymous reads (RLS as anon)
//   POST /api/bets                  50 funded players betting (money moves, row locks)
//   GET  /api/bets                  signed-in reads with embedded match and team
//   PATCH declare-winner            settling every bet of the match in one statement
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import postgres from 'postgres';
import { runDeno, startDeno } from './lib/deno.js';
import { pushMigrations } from './lib/migrate.js';
import { waitForOk } from './lib/processes.js';
import { createScratchDatabase, dropScratchDatabase } from './lib/scratch-database.js';

const PLAYERS = 50;
const BETS_PER_PLAYER = 20;
const CONCURRENCY = 20;

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const secret = randomBytes(16).toString('hex');
const adminPassword = randomBytes(12).toString('base64url');

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One signed-in browser: keeps its session cookie; a distinct client IP per player (rate limits). */
function client(base, ip) {
  let cookie;
  return async function call(method, path, body, headers = {}) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Runs `total` requests, `CONCURRENCY` at a time, and summarizes their latencies. */
async function load(name, total, request) {
  const latencies = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let index = next++; index < total; index = next++) {
        const begin = performance.now();
        await request(index).catch(() => failed++);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  return { name, requests: total, failed, 'req/s': Math.round(total / seconds), 'p50 ms': at(0.5), 'p95 ms': at(0.95), 'p99 ms': at(0.99) };
}

const database = await createScratchDatabase(serverUrl, 'cricket_bench');
let server;
try {
  await pushMigrations(database);
  await runDeno('scripts/admin.ts', [], { DATABASE_URL: database, ADMIN_USERNAME: 'bench_admin', ADMIN_PASSWORD: adminPassword });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = startDeno(
    'scripts/local-server.ts',
    { DATABASE_URL: database, PORT: String(port), PAYMENT_SANDBOX: 'false', PAYMENT_GATEWAY_URL: 'https://gateway.invalid/pay', PAYMENT_WEBHOOK_SECRET: secret, TRUST_PROXY: 'true' },
    { quiet: true },
  );
  await waitForOk(`${base}/api/health`);

  console.log(`Setting up ${PLAYERS} funded players and a live match …`);
  const admin = client(base, '10.255.0.1');
  await admin('POST', '/api/login', { username: 'bench_admin', password: adminPassword });
  const match = await admin('POST', '/api/admin/matches', { team1_id: 1, team2_id: 2, start_time: new Date().toISOString(), match_type: 't20', venue: 'Bench Oval' });
  await admin('PATCH', `/api/admin/matches/${match.id}/start`);
  const players = await Promise.all(
    Array.from({ length: PLAYERS }, async (_, n) => {
      const player = client(base, `10.1.${n >> 8}.${n & 255}`);
      const username = `bench${n}_${process.pid}`;
      await player('POST', '/api/register', { name: `Bench ${n}`, username, email: `${username}@example.com`, password: 'bench-pass-1' });
      const reference = `REF-${Date.now()}${n}-BNCH`;
      const amount = BETS_PER_PLAYER * 1000;
      await player('POST', '/api/wallet/deposit', { amount, paymentMethod: 'upi', reference });
      const raw = JSON.stringify({ reference, amount, status: 'success', gateway_txn_id: `GW-${reference}` });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
      await client(base, '10.2.0.1')('POST', '/api/payments/webhook', raw, { 'x-timestamp': timestamp, 'x-signature': signature });
      return player;
    }),
  );

  const results = [];
  const anonymous = client(base, '10.3.0.1');
  results.push(await load('GET /api/matches?status=live', 2000, () => anonymous('GET', '/api/matches?status=live')));
  results.push(
    await load('POST /api/bets', PLAYERS * BETS_PER_PLAYER, (index) =>
      players[index % PLAYERS]('POST', '/api/bets', { match_id: match.id, team_id: 1 + (index % 2), amount: 1000 }),
    ),
  );
  results.push(await load('GET /api/bets', 1000, (index) => players[index % PLAYERS]('GET', '/api/bets')));
  const settling = performance.now();
  await admin('PATCH', `/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
  const settlementMs = performance.now() - settling;
  console.table(results);
  console.log(`Settlement of ${PLAYERS * BETS_PER_PLAYER} bets (declare-winner, one request): ${settlementMs.toFixed(0)} ms`);

  const sql = postgres(database, { max: 1, onnotice: () => {} });
  try {
    const [{ count }] = await sql`select count(*)::int as count from app.reconcile()`;
    console.log(`Ledger check: ${count === 0 ? 'every balance equals its ledger' : `${count} users do NOT reconcile`}`);
    if (count !== 0) process.exitCode = 1;
  } finally {
    await sql.end();
  }
} finally {
  server?.stdin.end();
  server?.kill('SIGTERM');
  await dropScratchDatabase(serverUrl, database).catch(() => {});
}
