// `BENCH_LIVE=1 npm run bench` (or BENCH_LIVE=only for this part alone): live updates at match-day scale.
// One server process (one LISTEN), BENCH_LIVE_CLIENTS (default 1,000) Server-Sent Events subscribers of
// one live match, and an admin's live-score update every second for BENCH_LIVE_MINUTES (default 1). For
// each update it measures the time until the LAST subscriber has the new score (target ≤ 1 s) and counts the
// database statements sent while the event is delivered (the server's connections go through a counting
// proxy, scripts/lib/pg-counter.js: the target is none — the event carries the match); it samples the
// server's resident memory (RSS) after every update (target: flat).
import http from 'node:http';
import { treeRss } from './lib/memory.js';
import { startPgCounter } from './lib/pg-counter.js';

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 1000);
const MINUTES = Number(process.env.BENCH_LIVE_MINUTES ?? 1);

/** A subscriber that remembers when it first saw each score (frames are matched as text, not parsed). */
export function subscribe(base, matchId) {
  const seen = new Map();
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}/api/live/matches?id=${matchId}`,
      { agent: false, headers: { accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`live stream refused: ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        let buffer = '';
        response.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (frame.startsWith(': connected')) resolve({ seen, close: () => request.destroy() });
            const score = /"team1_score": "([^"]*)"/.exec(frame)?.[1];
            if (score && !seen.has(score)) seen.set(score, performance.now());
          }
        });
      },
    );
    request.on('error', reject);
  });
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * Helpers come from bench.js: request(base, method, path, options), startWorkers(script, env) → { base, pids,
 * stop }, createScratchDatabase / dropScratchDatabase, pushMigrations, runDeno, log.
 */
export async function benchLive({
  serverUrl,
  request,
  startWorkers,
  createScratchDatabase,
  dropScratchDatabase,
  pushMigrations,
  runDeno,
  log,
}) {
  const database = await createScratchDatabase(serverUrl, 'cricket_live');
  const counter = await startPgCounter(database);
  let server;
  const clients = [];
  try {
    await pushMigrations(database);
    await runDeno('scripts/admin.ts', [], {
      DATABASE_URL: database,
      ADMIN_USERNAME: 'live_admin',
      ADMIN_PASSWORD: 'live-admin-pass',
      ADMIN_MFA: 'optional',
    });
    server = await startWorkers('scripts/local-server.ts', {
      DATABASE_URL: counter.url,
      API_WORKERS: '1',
      LIVE_MAX_STREAMS: String(CLIENTS + 10),
    });
    const login = await request(server.base, 'POST', '/api/login', {
      body: { username: 'live_admin', password: 'live-admin-pass' },
    });
    const admin = login.headers['set-cookie'][0].split(';')[0];
    const match = JSON.parse(
      (
        await request(server.base, 'POST', '/api/admin/matches', {
          cookie: admin,
          body: { team1_id: 5, team2_id: 6, start_time: new Date().toISOString(), match_type: 't20' },
        })
      ).text,
    );
    await request(server.base, 'PATCH', `/api/admin/matches/${match.id}/start`, { cookie: admin });

    log(`live: ${CLIENTS} subscribers of one match, an update every second for ${MINUTES} min …`);
    for (let n = 0; n < CLIENTS; n += 100) {
      clients.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, CLIENTS - n) }, () => subscribe(server.base, match.id)),
        )),
      );
    }
    const lastArrivals = [];
    const rss = [];
    let deliveryStatements = 0;
    let missed = 0;
    const rounds = Math.max(1, Math.round(MINUTES * 60));
    for (let round = 1; round <= rounds; round++) {
      const score = `${round}/0`;
      const sent = performance.now();
      const answer = await request(server.base, 'PATCH', `/api/admin/matches/${match.id}/update-live`, {
        cookie: admin,
        body: { team1_score: score, current_innings: 1, current_over: (round % 20) + 0.1 },
      });
      if (answer.status !== 200) throw new Error(`update-live: ${answer.status} ${answer.text}`);
      counter.reset(); // from here on the update is committed: what follows is delivery
      const deadline = sent + 5000;
      while (clients.some((client) => !client.seen.has(score)) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      deliveryStatements += counter.counts().statements;
      const arrivals = clients.map((client) => client.seen.get(score));
      missed += arrivals.filter((at) => at === undefined).length;
      lastArrivals.push(Math.max(...arrivals.filter((at) => at !== undefined)) - sent);
      rss.push(server.pids.reduce((sum, pid) => sum + treeRss(pid), 0));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, sent + 1000 - performance.now())));
    }
    lastArrivals.sort((a, b) => a - b);
    log(
      `live: the last of ${CLIENTS} subscribers had the new score after p50 ${percentile(lastArrivals, 0.5).toFixed(0)} ms, ` +
        `p99 ${percentile(lastArrivals, 0.99).toFixed(0)} ms, max ${lastArrivals.at(-1).toFixed(0)} ms over ${rounds} updates ` +
        `(target ≤ 1000 ms); ${missed} deliveries missed`,
    );
    log(
      `live: database statements while delivering: ${deliveryStatements} in ${rounds} updates ` +
        "(the feed's watchdog pings the database once every 5 s; delivery itself reads nothing)",
    );
    const perMinute = rss.filter((_, n) => n % 60 === 59 || n === rss.length - 1).map((mib) => mib.toFixed(0));
    log(
      `live: server RSS ${rss[0].toFixed(0)} MiB after the first update; after each minute: ${perMinute.join(', ')} MiB ` +
        `(at most ${Math.max(...rss).toFixed(0)} MiB)`,
    );
  } finally {
    for (const client of clients) client.close();
    await server?.stop();
    await counter.close();
    await dropScratchDatabase(serverUrl, database).catch(() => {});
  }
}
