// `npm start` (and `npm run dev` with --dev): the whole product on this machine, on one origin.
//   database  DATABASE_URL, or embedded PostgreSQL in .data/ (scripts/lib/database.js)
//   schema    supabase/migrations pushed with the Supabase CLI; demo data on the first start only
//   admin     created on the first start, credentials printed once
//   server    the `api` edge function and the built SPA under Deno (scripts/local-server.ts);
//             in dev mode Vite serves the SPA with HMR and proxies /api to Deno
// Ctrl-C (SIGINT) or SIGTERM stops Deno and PostgreSQL; a second start reuses the data.
import { spawn } from 'node:child_process';
import { buildIfStale } from './lib/build.js';
import { openDatabase } from './lib/database.js';
import { runDeno, startDeno } from './lib/deno.js';
import { isNewDatabase, pushMigrations } from './lib/migrate.js';
import { bin, root, toolEnv, waitForOk } from './lib/processes.js';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 3000);
const apiPort = dev ? port + 1 : port;
const log = (message) => console.log(`[start] ${message}`);

const children = [];
let database;
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    child.stdin?.end();
    child.kill('SIGTERM');
  }
  await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
  await database?.close();
  process.exit(code);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

function keep(child, name) {
  children.push(child);
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`[start] ${name} exited (${code ?? 'signal'}); stopping.`);
      stop(code || 1);
    }
  });
  return child;
}

try {
  database = await openDatabase({ log });
  const firstStart = await isNewDatabase(database.url);
  log(firstStart ? 'New database: applying migrations and demo data …' : 'Applying new migrations, if any …');
  await pushMigrations(database.url, { seed: firstStart });
  if (firstStart) log('Demo player: username "demo", password "demo1234" (local demo data only)');
  await runDeno('scripts/admin.ts', ['--if-none'], { DATABASE_URL: database.url });

  if (!dev) await buildIfStale(log);
  keep(
    startDeno('scripts/local-server.ts', {
      DATABASE_URL: database.url,
      PORT: String(apiPort),
      STATIC_DIR: dev ? '' : 'dist',
      PAYMENT_SANDBOX: process.env.PAYMENT_SANDBOX ?? 'true',
    }),
    'Deno',
  );
  if (dev) {
    keep(
      spawn(bin('vite'), ['--port', String(port), '--strictPort'], { cwd: root, env: { ...toolEnv, API_PORT: String(apiPort) }, stdio: ['pipe', 'inherit', 'inherit'] }),
      'Vite',
    );
  }
  await waitForOk(`http://127.0.0.1:${apiPort}/api/health`);
  if (dev) await waitForOk(`http://127.0.0.1:${port}/`);
  log(`Ready: http://localhost:${port}  (Ctrl-C to stop)`);
} catch (error) {
  console.error(`[start] ${error.message}`);
  await stop(1);
}
