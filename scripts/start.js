// `npm start` (and `npm run dev` with --dev): the whole product on this machine, on one origin.
//   database  DATABASE_URL, or embedded PostgreSQL in .data/ (scripts/lib/database.js), supervised
//   schema    supabase/migrations pushed with the Supabase CLI; demo data on the first start only
//   admin     created on the first start, credentials printed once
//   server    API_WORKERS Deno workers (default: one per core) sharing the port, each running the `api`
//             edge function and the built SPA (scripts/local-server.ts), supervised; in dev mode Vite
//             serves the SPA with HMR and proxies /api to them
//   jobs      stale deposits failed every 5 minutes (app.fail_stale_deposits), unless pg_cron does it
// A process that exits unexpectedly is restarted with growing pauses (scripts/lib/supervisor.js); after
// repeated failures everything stops and we exit non-zero. Ctrl-C (SIGINT) or SIGTERM: the workers stop
// taking requests and finish the ones in flight, then PostgreSQL shuts down cleanly; a second start reuses
// the data.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { buildIfStale } from './lib/build.js';
import { DEFAULT_POOL_MAX, poolPerWorker } from './lib/connections.js';
import { EmbeddedServer, totpKeyFor } from './lib/database.js';
import { runDeno, startServerWorker } from './lib/deno.js';
import { exposureRefusal, exposureSettings } from './lib/exposure.js';
import { isNewDatabase, pushMigrations } from './lib/migrate.js';
import { bin, root, toolEnv, waitForOk } from './lib/processes.js';
import { scheduleStaleDeposits } from './lib/stale-deposits.js';
import { stopChild, supervise } from './lib/supervisor.js';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const apiPort = dev ? port + 1 : port;
const workerCount = Number(process.env.API_WORKERS ?? availableParallelism());
const log = (message) => console.log(`[start] ${message}`);

/** Bounds of a clean stop: the workers' own drain (local-server.ts) plus a margin, then PostgreSQL's shutdown. */
const WORKER_STOP_MS = 15_000;
const POSTGRES_STOP_MS = 30_000;

let postgresProcess;
const workers = [];
let vite;
let staleDeposits;
let stopping = false;
let gaveUp;
const givenUp = new Promise((resolve) => (gaveUp = resolve));

async function stop(code) {
  if (stopping) return;
  stopping = true;
  staleDeposits?.cancel();
  if (vite) await stopChild(vite, 'SIGTERM', WORKER_STOP_MS);
  await Promise.all(workers.map((worker) => worker.stop('SIGTERM', WORKER_STOP_MS)));
  await postgresProcess?.stop('SIGINT', POSTGRES_STOP_MS); // fast shutdown: clean, with a checkpoint
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));

/** Each supervised process gives up the same way: say so and stop everything with a failure. */
const supervised = (name, start, beforeRestart) =>
  supervise({ name, start, beforeRestart, log, onGiveUp: (reason) => gaveUp(new Error(reason)) });

/** Workers share the port (SO_REUSEPORT), so the kernel would let a second `npm start` join in silence. */
function assertPortFree() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', () => reject(new Error(`Port ${apiPort} is in use (set PORT).`)));
    probe.listen(apiPort, host, () => probe.close(resolve));
  });
}

/** The database's URL and the key its two-factor secrets are sealed with (TOTP_ENCRYPTION_KEY). */
async function openDatabase() {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, totpKey: totpKeyFor(undefined) };
  const server = new EmbeddedServer({ log });
  await server.prepare();
  postgresProcess = await supervised(
    'PostgreSQL',
    () => server.start(),
    () => server.cleanUpAfterCrash(),
  );
  return { url: server.url, totpKey: totpKeyFor(server) };
}

async function startWorkers(databaseUrl, totpKey) {
  const wanted = Number(process.env.DATABASE_POOL_MAX ?? DEFAULT_POOL_MAX);
  const limits = await poolPerWorker(databaseUrl, workerCount, wanted);
  log(
    `${workerCount} server worker(s), each with ${limits.pool} database connections and 1 for live updates ` +
      `(PostgreSQL: max_connections ${limits.max}, ${limits.reserved} reserved, ${limits.held} in use by others)`,
  );
  const env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: String(limits.pool),
    PORT: String(apiPort),
    HOST: host,
    STATIC_DIR: dev ? '' : 'dist',
    PAYMENT_SANDBOX: process.env.PAYMENT_SANDBOX ?? 'true',
    TOTP_ENCRYPTION_KEY: totpKey,
  };
  await assertPortFree();
  for (let index = 1; index <= workerCount; index++) {
    const worker = await supervised(`Server worker ${index}`, () => startServerWorker(env));
    log(`Server worker ${index} listening (pid ${worker.pid})`);
    workers.push(worker);
  }
}

try {
  if (!Number.isInteger(workerCount) || workerCount < 1) throw new Error('API_WORKERS must be a whole number ≥ 1.');
  const refusal = exposureRefusal(exposureSettings(host, process.env));
  if (refusal) throw new Error(refusal);
  const { url: databaseUrl, totpKey } = await openDatabase();
  const firstStart = await isNewDatabase(databaseUrl);
  log(firstStart ? 'New database: applying migrations and demo data …' : 'Applying new migrations, if any …');
  await pushMigrations(databaseUrl, { seed: firstStart });
  if (firstStart) log('Demo player: username "demo", password "demo1234" (local demo data only)');
  await runDeno('scripts/admin.ts', ['--if-none'], { DATABASE_URL: databaseUrl, TOTP_ENCRYPTION_KEY: totpKey });
  log(
    process.env.ADMIN_MFA === 'required'
      ? 'Two-factor sign-in for admins: required (ADMIN_MFA=required): the admin pages wait until it is set up'
      : 'Two-factor sign-in for admins: optional here (set ADMIN_MFA=required to require it, as on Supabase)',
  );

  if (!dev) await buildIfStale(log);
  await startWorkers(databaseUrl, totpKey);
  if (dev) {
    vite = spawn(bin('vite'), ['--port', String(port), '--strictPort'], {
      cwd: root,
      env: { ...toolEnv, API_PORT: String(apiPort) },
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    vite.once('exit', (code) => {
      if (!stopping) gaveUp(new Error(`Vite exited (${code ?? 'signal'})`));
    });
  }
  await Promise.race([
    waitForOk(`http://127.0.0.1:${apiPort}/api/health`),
    givenUp.then((error) => Promise.reject(error)),
  ]);
  if (dev) await waitForOk(`http://127.0.0.1:${port}/`);
  staleDeposits = scheduleStaleDeposits(databaseUrl, log);
  log(`Ready: http://localhost:${port}  (Ctrl-C to stop)`);
  const error = await givenUp;
  console.error(`[start] ${error.message}; stopping.`);
  await stop(1);
} catch (error) {
  console.error(`[start] ${error.message}`);
  await stop(1);
}
