// `BENCH_CROWD=1 npm run bench` (or BENCH_CROWD=only for this part alone): a crowd on one live match, as
// it is when live updates cannot reach everyone. The admin changes the score every 5 s for
// BENCH_CROWD_SECONDS (default 60), on the local server's workers (one per core, as `npm start`), and
//
//   polling  BENCH_CROWD_VIEWERS (default 5,000) viewers poll the match as the SPA does while its live
//            updates are delayed (every 5 s ± 1 s, with If-None-Match and the last ETag), once straight at the
//            server and once through a shared cache in front of it (Debian's nginx with proxy_cache, started
//            here: scripts/lib/shared-cache.js, the CDN's stand-in). For each: the requests a second that
//            reach the server (counted from its request log), and how long after each change the LAST viewer
//            had it (p50, p99 and max over the changes; every viewer's delay too).
//   streams  Server-Sent Events viewers of the match on workers of their own: about as many as the workers
//            take as shipped (1,800 a worker of LIVE_MAX_STREAMS' 2,000, each worker's default heap), then
//            BENCH_CROWD_STREAMS (default 10,000) with the heap they need (BENCH_CROWD_STREAM_HEAP_MB, default
//            1,024 MiB a worker): how long after each change the last of them had it, and the workers' memory.
//
// The viewers come from a load generator in this process (Node's http, one keep-alive connection each, as
// a browser tab), not wrk: wrk's Lua hooks are not told which connection an answer came on, so it cannot say
// when each viewer first saw a change — which is what is measured. The generator shares the machine with
// the server, PostgreSQL and nginx; the delay of this process's own event loop is reported beside the
// figures, since an answer is timed when this process gets to read it.
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { treeRss } from './lib/memory.js';
import { startSharedCache } from './lib/shared-cache.js';
import { subscribe } from './bench-live.js';

const VIEWERS = Number(process.env.BENCH_CROWD_VIEWERS ?? 5000);
const STREAMS = Number(process.env.BENCH_CROWD_STREAMS ?? 10_000);
/** The workers' heap for STREAMS streams (at the default 128 MiB, 5,000 streams a worker keep its collector busy). */
const STREAM_HEAP_MB = Number(process.env.BENCH_CROWD_STREAM_HEAP_MB ?? 1024);
const SECONDS = Number(process.env.BENCH_CROWD_SECONDS ?? 60);
const CHANGE_EVERY_MS = 5000;
// As the SPA polls while its live updates are delayed (src/domain/live-updates.ts: MATCH_POLL_MS ± MATCH_POLL_JITTER_MS).
const POLL_MS = 5000;
const POLL_JITTER_MS = 1000;
/** After the last change, how long the viewers go on (a poll and a cache lifetime), so every one can see it. */
const SETTLE_MS = POLL_MS + POLL_JITTER_MS + 3000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const pollDelay = () => POLL_MS + (Math.random() * 2 - 1) * POLL_JITTER_MS;
const percentile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (value) => (value === undefined ? '—' : `${Math.round(value)} ms`);

/**
 * A viewer polling `url` until `running()` is false: remembers when it first had each version of the match
 * (a 304 keeps the version it has). Starts at a random moment of its first poll interval, as a crowd does.
 */
function pollingViewer(url, running, counts, bodyBytes) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const seen = []; // [version, at] in the order this viewer got them
  let etag;
  let version = 0;
  const get = () =>
    new Promise((resolve) => {
      const request = http.get(url, { agent, headers: etag ? { 'if-none-match': etag } : {} }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          const at = performance.now();
          counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
          bodyBytes.total += Buffer.byteLength(body);
          if (response.statusCode === 200) {
            etag = response.headers.etag;
            const now = JSON.parse(body).version;
            if (now > version) seen.push([now, at]);
            version = Math.max(version, now);
          }
          resolve();
        });
      });
      request.on('error', () => {
        counts.failed = (counts.failed ?? 0) + 1;
        resolve();
      });
    });
  const done = (async () => {
    await sleep(Math.random() * POLL_MS);
    while (running()) {
      await get();
      await sleep(pollDelay());
    }
    agent.destroy();
  })();
  /** When this viewer first had `wanted` or a later version (undefined: never). */
  const firstHad = (wanted) => seen.find(([had]) => had >= wanted)?.[1];
  return { done, firstHad };
}

/** For each change: the delay until its last viewer had it, and every viewer's delay. */
function delays(changes, firstHad) {
  const last = [];
  const every = [];
  let missed = 0;
  for (const { version, at } of changes) {
    let latest = 0;
    for (const had of firstHad) {
      const when = had(version);
      if (when === undefined) {
        missed += 1;
        continue;
      }
      every.push(when - at);
      latest = Math.max(latest, when - at);
    }
    last.push(latest);
  }
  return { last, every, missed };
}

/** The admin's score changes, every CHANGE_EVERY_MS for SECONDS: when each was sent, and its version. */
async function changeScores(request, base, admin, matchId, first) {
  const changes = [];
  const rounds = Math.max(1, Math.round((SECONDS * 1000) / CHANGE_EVERY_MS));
  for (let round = 0; round < rounds; round++) {
    const at = performance.now();
    const answer = await request(base, 'PATCH', `/api/admin/matches/${matchId}/update-live`, {
      cookie: admin,
      body: { team1_score: `${first + round}/1`, current_innings: 1, current_over: (round % 19) + 0.1 },
    });
    if (answer.status !== 200) throw new Error(`update-live: ${answer.status} ${answer.text}`);
    changes.push({ version: JSON.parse(answer.text).version, at });
    await sleep(at + CHANGE_EVERY_MS - performance.now());
  }
  return changes;
}

/**
 * `streams` Server-Sent Events viewers of match `matchId` on server workers of their own (heap `heapMb`, else
 * the default; LIVE_MAX_STREAMS to fit them), the admin changing the score every 5 s for SECONDS: how long
 * after each change the last of them had it (a delivery later than the next change counts as missed), and
 * the workers' memory.
 */
async function streamCrowd(
  { request, startWorkers, log },
  { database, admin, matchId, streams: count, heapMb, first },
) {
  const heap = heapMb ? `${heapMb} MiB heap` : 'the default heap';
  log(`crowd: ${count} Server-Sent Events viewers (${heap}), a score change every 5 s for ${SECONDS} s …`);
  const server = await startWorkers(
    'scripts/local-server.ts',
    { DATABASE_URL: database, ...(heapMb ? { LIVE_MAX_STREAMS: String(count) } : {}) },
    { heapMb },
  );
  const streams = [];
  const lag = monitorEventLoopDelay();
  try {
    for (let n = 0; n < count; n += 500) {
      const batch = Array.from({ length: Math.min(500, count - n) }, () => subscribe(server.base, matchId));
      streams.push(...(await Promise.all(batch)));
    }
    const rssBefore = server.pids.reduce((sum, pid) => sum + treeRss(pid), 0);
    const last = [];
    let missed = 0;
    const rounds = Math.max(1, Math.round((SECONDS * 1000) / CHANGE_EVERY_MS));
    lag.enable();
    for (let round = 0; round < rounds; round++) {
      const score = `${first + round}/2`;
      const sent = performance.now();
      const answer = await request(server.base, 'PATCH', `/api/admin/matches/${matchId}/update-live`, {
        cookie: admin,
        body: { team1_score: score, current_innings: 1, current_over: (round % 19) + 0.2 },
      });
      if (answer.status !== 200) throw new Error(`update-live: ${answer.status} ${answer.text}`);
      while (streams.some((stream) => !stream.seen.has(score)) && performance.now() < sent + CHANGE_EVERY_MS) {
        await sleep(5);
      }
      const arrivals = streams.map((stream) => stream.seen.get(score));
      missed += arrivals.filter((at) => at === undefined).length;
      last.push(Math.max(0, ...arrivals.filter((at) => at !== undefined)) - sent);
      await sleep(sent + CHANGE_EVERY_MS - performance.now());
    }
    lag.disable();
    const rssAfter = server.pids.reduce((sum, pid) => sum + treeRss(pid), 0);
    log(
      `crowd: the last of ${count} stream viewers (${heap}) had each change after p50 ${ms(percentile(last, 0.5))}, ` +
        `p99 ${ms(percentile(last, 0.99))}, max ${ms(Math.max(...last))} over ${rounds} changes; ${missed} deliveries ` +
        `later than 5 s; the workers' RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB with the streams open ` +
        `(${server.pids.length} workers); generator lag p99 ${ms(lag.percentile(99) / 1e6)}`,
    );
  } finally {
    for (const stream of streams) stream.close();
    await server.stop();
  }
}

/**
 * Helpers come from bench.js: request(base, method, path, options), startWorkers(script, env, options) →
 * { base, pids, stop }, createScratchDatabase / dropScratchDatabase, pushMigrations, runDeno, log.
 */
export async function benchCrowd(parts) {
  const { serverUrl, request, startWorkers, createScratchDatabase, dropScratchDatabase, pushMigrations, runDeno, log } =
    parts;
  const database = await createScratchDatabase(serverUrl, 'cricket_crowd');
  const lag = monitorEventLoopDelay();
  let server;
  let cache;
  try {
    await pushMigrations(database);
    await runDeno('scripts/admin.ts', [], {
      DATABASE_URL: database,
      ADMIN_USERNAME: 'crowd_admin',
      ADMIN_PASSWORD: 'crowd-admin-pass',
      ADMIN_MFA: 'optional',
    });
    // The server's request log says which requests reached it; only the match's reads are counted.
    let matchReads = 0;
    server = await startWorkers(
      'scripts/local-server.ts',
      { DATABASE_URL: database },
      { onLog: (line) => line.includes('"route":"/api/matches/:id"') && (matchReads += 1) },
    );
    cache = await startSharedCache(server.base, { connections: VIEWERS + 1000 });
    const login = await request(server.base, 'POST', '/api/login', {
      body: { username: 'crowd_admin', password: 'crowd-admin-pass' },
    });
    const admin = login.headers['set-cookie'][0].split(';')[0];
    const match = JSON.parse(
      (
        await request(server.base, 'POST', '/api/admin/matches', {
          cookie: admin,
          body: { team1_id: 3, team2_id: 4, start_time: new Date().toISOString(), match_type: 't20' },
        })
      ).text,
    );
    await request(server.base, 'PATCH', `/api/admin/matches/${match.id}/start`, { cookie: admin });

    const results = [];
    let first = 1;
    for (const [name, base] of VIEWERS === 0
      ? []
      : [
          ['straight at the server', server.base],
          ['through nginx proxy_cache', cache.base],
        ]) {
      log(`crowd: ${VIEWERS} viewers polling ${name}, a score change every 5 s for ${SECONDS} s …`);
      let running = true;
      const counts = {};
      const bodyBytes = { total: 0 };
      const viewers = Array.from({ length: VIEWERS }, () =>
        pollingViewer(`${base}/api/matches/${match.id}`, () => running, counts, bodyBytes),
      );
      await sleep(POLL_MS + POLL_JITTER_MS); // every viewer has polled once
      const readsBefore = matchReads;
      const sentBefore = Object.values(counts).reduce((sum, n) => sum + n, 0);
      lag.reset();
      lag.enable();
      const started = performance.now();
      const changes = await changeScores(request, server.base, admin, match.id, first);
      const seconds = (performance.now() - started) / 1000;
      const originRate = (matchReads - readsBefore) / seconds;
      const viewerRate = (Object.values(counts).reduce((sum, n) => sum + n, 0) - sentBefore) / seconds;
      await sleep(SETTLE_MS);
      lag.disable();
      running = false;
      await Promise.all(viewers.map((viewer) => viewer.done));
      first += changes.length;
      const { last, every, missed } = delays(
        changes,
        viewers.map((viewer) => viewer.firstHad),
      );
      results.push({
        viewers: name,
        'viewer req/s': Math.round(viewerRate),
        'server req/s': Number(originRate.toFixed(1)),
        answers: Object.entries(counts)
          .map(([status, n]) => `${status}: ${n}`)
          .join(', '),
        'body bytes/answer': Math.round(bodyBytes.total / Object.values(counts).reduce((sum, n) => sum + n, 0)),
        'last viewer p50': ms(percentile(last, 0.5)),
        'last viewer p99': ms(percentile(last, 0.99)),
        'last viewer max': ms(Math.max(...last)),
        'any viewer p50': ms(percentile(every, 0.5)),
        'any viewer p99': ms(percentile(every, 0.99)),
        'changes / missed': `${changes.length} / ${missed}`,
        'generator lag p99': ms(lag.percentile(99) / 1e6),
      });
    }
    if (results.length > 0) console.table(results);
    if (STREAMS === 0) return;
    // As `npm start` ships: each worker's default heap and LIVE_MAX_STREAMS' default of 2,000 streams a
    // worker — 1,800 a worker here, since the kernel does not spread connections over the workers evenly.
    await streamCrowd(parts, { database, admin, matchId: match.id, streams: 1800 * server.pids.length, first });
    // The bench's crowd, with the heap it takes.
    await streamCrowd(parts, {
      database,
      admin,
      matchId: match.id,
      streams: STREAMS,
      heapMb: STREAM_HEAP_MB,
      first: first + 1000,
    });
  } finally {
    await cache?.stop();
    await server?.stop();
    await dropScratchDatabase(serverUrl, database).catch(() => {});
  }
}
