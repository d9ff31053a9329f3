// `BENCH_MEMORY=1 npm run bench` (or BENCH_MEMORY=only for this part alone): the server workers' memory
// under a match day's mixed load at the machine's capacity, with the heap limit `npm start` gives them
// (API_WORKER_HEAP_MB, scripts/lib/deno.js).
//
//   load     16 connections kept busy (the admin's among them): players reading (match list, a match, their user, bets and
//            transactions) and betting (some with an Idempotency-Key, some replayed), deposits paid through
//            the webhook, withdrawals, logins; an admin updating the live score every second; SSE
//            subscribers of the match, each reconnecting every few seconds
//   memory   each worker's RSS every 5 s for BENCH_MEMORY_SECONDS (default 300), printed with the peak.
//            Targets: ≤ 256 MiB throughout; the last minute's mean within 10 % of the second minute's;
//            30 s after the load, each worker within 25 MiB of where it was before
//   limit    throughput of the same load with and without the heap limit, alternating short runs
//            (BENCH_MEMORY_COMPARE_SECONDS each, default 30; twice each): within 5 %
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import { treeRss } from './lib/memory.js';
import { workerHeapMb } from './lib/deno.js';

const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 300);
const COMPARE_SECONDS = Number(process.env.BENCH_MEMORY_COMPARE_SECONDS ?? 30);
const SAMPLE_MS = 5_000;
const SETTLE_MS = 30_000;
const PLAYERS = 64;
const PLAYER_LOOPS = 12;
const SUBSCRIBERS = 40;
const SECRET = randomBytes(16).toString('hex');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const round = (mib) => Math.round(mib);

/**
 * Helpers come from bench.js: request(base, method, path, options), startWorkers(script, env, deno options)
 * → { base, pids, stop }, createScratchDatabase / dropScratchDatabase, pushMigrations, runDeno, log.
 */
export async function benchMemory({
  serverUrl,
  request,
  startWorkers,
  createScratchDatabase,
  dropScratchDatabase,
  pushMigrations,
  runDeno,
  log,
}) {
  const database = await createScratchDatabase(serverUrl, 'cricket_memory');
  const env = {
    DATABASE_URL: database,
    PAYMENT_SANDBOX: 'false',
    PAYMENT_GATEWAY_URL: 'https://gateway.invalid/pay',
    PAYMENT_WEBHOOK_SECRET: SECRET,
    TRUST_PROXY_HOPS: '1',
  };
  const start = (limited) => startWorkers('scripts/local-server.ts', env, { heapLimit: limited });
  let server;
  try {
    await pushMigrations(database);
    const adminPassword = randomBytes(12).toString('base64url');
    await runDeno('scripts/admin.ts', [], {
      DATABASE_URL: database,
      ADMIN_USERNAME: 'memory_admin',
      ADMIN_PASSWORD: adminPassword,
      ADMIN_MFA: 'optional',
    });
    server = await start(true);
    const world = await setUp(request, server.base, adminPassword);

    log(`memory: the heap limit against none (${COMPARE_SECONDS} s runs, alternating) …`);
    const rates = { limited: [], unlimited: [] };
    for (const limited of COMPARE_SECONDS > 0 ? [false, true, false, true] : []) {
      await server.stop();
      server = await start(limited);
      const run = await mixedLoad(request, server.base, world, COMPARE_SECONDS);
      rates[limited ? 'limited' : 'unlimited'].push(run.rate);
    }
    const ratio = rates.limited.length ? mean(rates.limited) / mean(rates.unlimited) : 1;

    log(
      `memory: ${SECONDS} s of mixed load on ${server.pids.length} worker(s) with a heap limit of ${workerHeapMb()} MiB, RSS every 5 s …`,
    );
    await server.stop();
    server = await start(true);
    await mixedLoad(request, server.base, world, 10); // warm-up: every route compiled, every pool connection open
    await sleep(SETTLE_MS);
    const before = server.pids.map(treeRss);
    const samples = [];
    const sampler = setInterval(() => samples.push(server.pids.map(treeRss)), SAMPLE_MS);
    const run = await mixedLoad(request, server.base, world, SECONDS);
    clearInterval(sampler);
    await sleep(SETTLE_MS);
    const after = server.pids.map(treeRss);

    report(log, { before, samples, after, run, rates, ratio });
  } finally {
    await server?.stop();
    await dropScratchDatabase(serverUrl, database).catch(() => {});
  }
}

/** Prints the series and the verdicts; a missed target fails the bench (exit code 1). */
function report(log, { before, samples, after, run, rates, ratio }) {
  const workers = before.length;
  const perMinute = 60_000 / SAMPLE_MS;
  log(
    `memory: ${run.requests} requests in ${SECONDS} s (${run.rate} req/s), statuses ${JSON.stringify(run.statuses)}, ` +
      `${run.failed} failed (5xx or no answer)`,
  );
  for (let worker = 0; worker < workers; worker++) {
    const series = samples.map((sample) => sample[worker]);
    const peak = Math.max(...series);
    const second = mean(series.slice(perMinute, 2 * perMinute));
    const last = mean(series.slice(-perMinute));
    const drift = (last - second) / second;
    const settled = after[worker] - before[worker];
    const ok = peak <= 256 && Math.abs(drift) <= 0.1 && Math.abs(settled) <= 25;
    if (!ok) process.exitCode = 1;
    log(`memory: worker ${worker + 1} RSS (MiB, every 5 s): ${series.map(round).join(' ')}`);
    log(
      `memory: worker ${worker + 1}: peak ${round(peak)} MiB (target ≤ 256); minute 2 mean ${round(second)}, last minute ` +
        `${round(last)} (${(100 * drift).toFixed(1)} %, target within 10 %); before ${round(before[worker])}, 30 s after ` +
        `${round(after[worker])} (${settled >= 0 ? '+' : ''}${round(settled)}, target within 25) ${ok ? 'ok' : 'MISSED'}`,
    );
  }
  if (run.failed > 0) process.exitCode = 1;
  if (ratio < 0.95) process.exitCode = 1;
  log(
    `memory: throughput with the heap limit ${rates.limited.join(', ')} req/s, without ${rates.unlimited.join(', ')}: ` +
      `${(100 * ratio).toFixed(1)} % (target ≥ 95 %)`,
  );
}

/** Signs a payment event as the gateway does (scripts/bench.js's players are paid the same way). */
function webhook(request, base, event) {
  const raw = JSON.stringify(event);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', SECRET).update(`${timestamp}.${raw}`).digest('hex');
  return request(base, 'POST', '/api/payments/webhook', {
    body: raw,
    headers: { 'x-timestamp': timestamp, 'x-signature': signature },
  });
}

let references = 0;
/** A deposit of ₹100,000 paid at once (two requests: counted as one); resolves with the last status. */
async function deposit(request, base, player) {
  const reference = `REF-${String(++references).padStart(12, '0')}-MEMB`; // unique in the bench's own database
  const created = await request(base, 'POST', '/api/wallet/deposit', {
    cookie: player.cookie,
    headers: player.ip,
    body: { amount: 100_000, paymentMethod: 'upi', reference },
  });
  if (created.status !== 201) return created.status;
  return (
    await webhook(request, base, { reference, amount: 100_000, status: 'success', gateway_txn_id: `GW-${reference}` })
  ).status;
}

/** Players (funded, each with a bank account), a live match with limits out of the way, an admin. */
async function setUp(request, base, adminPassword) {
  const login = await request(base, 'POST', '/api/login', {
    headers: { 'x-forwarded-for': '10.254.0.1' },
    body: { username: 'memory_admin', password: adminPassword },
  });
  const admin = login.headers['set-cookie'][0].split(';')[0];
  const match = JSON.parse(
    (
      await request(base, 'POST', '/api/admin/matches', {
        cookie: admin,
        body: {
          team1_id: 1,
          team2_id: 2,
          start_time: new Date().toISOString(),
          match_type: 't20',
          venue: 'Memory Oval',
        },
      })
    ).text,
  );
  await request(base, 'PATCH', `/api/admin/matches/${match.id}/start`, { cookie: admin });
  const limits = await request(base, 'PUT', '/api/admin/settings', {
    cookie: admin,
    body: { max_stake_per_player_match: 1_000_000_000, max_liability_per_match: 1_000_000_000 },
  });
  if (limits.status !== 200) throw new Error(`settings: ${limits.status} ${limits.text}`);
  const players = await Promise.all(
    Array.from({ length: PLAYERS }, async (_, n) => {
      const ip = { 'x-forwarded-for': `10.2.${n >> 8}.${n & 255}` };
      const username = `memory${n}_${process.pid}`;
      const password = 'memory-pass-1';
      const registered = await request(base, 'POST', '/api/register', {
        headers: ip,
        body: { name: `Memory ${n}`, username, email: `${username}@example.com`, password },
      });
      if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
      const player = {
        n,
        ip,
        username,
        password,
        team: 1 + (n % 2),
        cookie: registered.headers['set-cookie'][0].split(';')[0],
      };
      const account = await request(base, 'POST', '/api/bank-accounts', {
        cookie: player.cookie,
        headers: ip,
        body: {
          account_holder: `Memory ${n}`,
          account_number: `12345678${String(n).padStart(4, '0')}`,
          ifsc_code: 'HDFC0001234',
          bank_name: 'HDFC Bank',
        },
      });
      if (account.status !== 201) throw new Error(`bank account: ${account.status} ${account.text}`);
      player.bankAccountId = JSON.parse(account.text).id;
      for (let d = 0; d < 5; d++) {
        const paid = await deposit(request, base, player);
        if (paid !== 200) throw new Error(`deposit: ${paid}`);
      }
      return player;
    }),
  );
  return { admin, match, players };
}

/** A Server-Sent Events subscriber of the match that hangs up after `ms` (as a browser tab closes). */
function subscribeFor(base, matchId, ms) {
  return new Promise((resolve) => {
    const req = http.get(
      `${base}/api/live/matches?id=${matchId}`,
      { agent: false, headers: { accept: 'text/event-stream' } },
      (res) => {
        res.on('data', () => {});
        res.on('error', () => {});
        setTimeout(() => req.destroy(), ms);
      },
    );
    req.on('error', () => {});
    req.on('close', resolve);
  });
}

/**
 * The mixed load for `seconds`: PLAYER_LOOPS players' loops, one of deposits, one of withdrawals, one of logins
 * (16 connections in all), the admin's score every second, SUBSCRIBERS streams coming and going.
 * Resolves with the requests answered, their statuses, those that failed (5xx, no answer) and the rate.
 */
async function mixedLoad(request, base, { admin, match, players }, seconds) {
  const statuses = {};
  let requests = 0;
  let failed = 0;
  /** Counts an answer: by status, and a refusal or failure also by route (`POST /api/wallet/withdraw 409`). */
  const count = (status, route) => {
    requests += 1;
    const key = status >= 200 && status < 300 ? status : `${route} ${status}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (status === 0 || status >= 500) failed += 1;
  };
  const call = (method, path, options) => {
    const route = `${method} ${path.split('?')[0].replace(/\d+/g, '{id}')}`;
    return request(base, method, path, options).then(
      (answer) => (count(answer.status, route), answer),
      () => (count(0, route), { status: 0 }),
    );
  };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const running = () => performance.now() < deadline;
  let n = 0;
  const player = () => players[n++ % players.length];

  const playerLoop = async () => {
    for (let step = 0; running(); step++) {
      const p = player();
      const as = { cookie: p.cookie, headers: p.ip };
      switch (step % 10) {
        case 0:
        case 1:
        case 2:
          await call('GET', '/api/matches?status=live', as);
          break;
        case 3:
          await call('GET', `/api/matches/${match.id}`, as);
          break;
        case 4:
          await call('GET', '/api/user', as);
          break;
        case 5:
        case 6: {
          // every third bet carries an Idempotency-Key; half of those are sent twice (a retry: replayed)
          const key = n % 3 === 0 ? `memory-${n}` : undefined;
          const bet = {
            ...as,
            body: { match_id: match.id, team_id: p.team, amount: 1000 },
            headers: { ...p.ip, ...(key ? { 'idempotency-key': key } : {}) },
          };
          await call('POST', '/api/bets', bet);
          if (key && n % 2 === 0) await call('POST', '/api/bets', bet);
          break;
        }
        case 7:
          await call('GET', '/api/bets', as);
          break;
        case 8:
          await call('GET', '/api/wallet/transactions', as);
          break;
        default:
          await call('GET', `/api/matches/${match.id}/position`, as);
      }
    }
  };
  const depositLoop = async () => {
    while (running()) count(await deposit(request, base, player()).catch(() => 0), 'deposit and webhook');
  };
  const withdrawalLoop = async () => {
    while (running()) {
      const p = player();
      await call('POST', '/api/wallet/withdraw', {
        cookie: p.cookie,
        headers: p.ip,
        body: { amount: 500, bankAccountId: p.bankAccountId },
      });
    }
  };
  const loginLoop = async () => {
    while (running()) {
      const p = player();
      await call('POST', '/api/login', { headers: p.ip, body: { username: p.username, password: p.password } });
    }
  };
  const scoreLoop = async () => {
    for (let over = 1; running(); over++) {
      const sent = performance.now();
      await call('PATCH', `/api/admin/matches/${match.id}/update-live`, {
        cookie: admin,
        body: { team1_score: `${over}/1`, current_innings: 1, current_over: (over % 20) + 0.1 },
      });
      await sleep(Math.max(0, sent + 1000 - performance.now()));
    }
  };
  const subscriberLoop = async (k) => {
    await sleep(k * 100);
    while (running())
      await subscribeFor(base, match.id, Math.min(3000 + (k % 7) * 1000, Math.max(0, deadline - performance.now())));
  };

  await Promise.all([
    ...Array.from({ length: PLAYER_LOOPS }, playerLoop),
    depositLoop(),
    withdrawalLoop(),
    loginLoop(),
    scoreLoop(),
    ...Array.from({ length: SUBSCRIBERS }, (_, k) => subscriberLoop(k)),
  ]);
  const rate = Math.round(requests / ((performance.now() - started) / 1000));
  return { requests, statuses, failed, rate };
}
