// `npm test`: every layer, on this machine, against real parts.
//   typecheck → lint → unit → database (migrations, advisors, lint, pgTAP, concurrency) → api (direct, then
//   through PgBouncer) → e2e
// Usage: npm test [-- step …]   e.g. `npm test -- api e2e` runs only those steps (plus their setup).
// The database steps use TEST_DATABASE_URL's server (default: the local PostgreSQL on 127.0.0.1:5432),
// in a fresh database created for this run and dropped afterwards (KEEP_TEST_DB=1 keeps it).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiTypesAreCurrent, writeApiDocument } from './lib/api-document.js';
import { buildFunctionBundle } from './lib/function-bundle.js';
import { pushMigrations } from './lib/migrate.js';
import { startPgBouncer } from './lib/pgbouncer.js';
import { createScratchDatabase, dropScratchDatabase, redact } from './lib/scratch-database.js';
import { bin, root, run, toolEnv } from './lib/processes.js';
import { ensureSystemPackages, ensureTestServer } from './lib/system.js';

const STEPS = ['typecheck', 'lint', 'unit', 'database', 'api', 'e2e'];
const chosen = process.argv.slice(2).filter((arg) => STEPS.includes(arg));
const wanted = (step) => chosen.length === 0 || chosen.includes(step);
const needsDatabase = ['database', 'api', 'e2e'].some(wanted);

const results = [];
async function step(name, action) {
  const started = Date.now();
  console.log(`\n━━ ${name}`);
  try {
    await action();
    results.push({ name, ok: true, seconds: (Date.now() - started) / 1000 });
  } catch (error) {
    console.error(error.output ?? error.message);
    results.push({ name, ok: false, seconds: (Date.now() - started) / 1000 });
  }
}

/**
 * The key the tests' servers, scripts and fixtures seal two-factor secrets with (TOTP_ENCRYPTION_KEY): the
 * environment's, else a new one for this run, whose database is new too.
 */
const totpKey = process.env.TOTP_ENCRYPTION_KEY || randomBytes(32).toString('base64');

const vitest = (project, env = {}, args = []) =>
  run(bin('vitest'), ['run', '--project', project, ...args], {
    env: { ...toolEnv, TOTP_ENCRYPTION_KEY: totpKey, ...env },
  });

/**
 * API test files whose servers never use the test database through the pooler: each brings a database of its
 * own (an embedded server it restarts, stalls or kills, a round-trip counting proxy, a proxy that cuts connections, none at all,
 * or only the refusal to start, or a fresh one the document's examples run on), or starts no server
 * (memory-retention runs the request path's transaction alone).
 */
const DIRECT_ONLY_API_TESTS = [
  'live-restart',
  'database-stall',
  'request-cost',
  'exposure',
  'sandbox-unavailable',
  'memory-retention',
  'examples',
].map((name) => `tests/api/${name}.test.ts`);
const supabase = (args) => run(bin('supabase'), args, { capture: true }).then((output) => console.log(output.trim()));

let serverUrl;
let testDb;
try {
  if (needsDatabase) {
    serverUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
    ensureSystemPackages({ major: await ensureTestServer(serverUrl), e2e: wanted('e2e') });
    testDb = await createScratchDatabase(serverUrl, 'cricket_test');
    console.log(`Test database: ${redact(testDb)}`);
    await step('migrations (supabase db push)', () =>
      pushMigrations(testDb).then((output) => console.log(output.trim())),
    );
  }

  if (wanted('typecheck')) {
    await step('typecheck (tsc)', () => run(bin('tsc'), ['--noEmit']));
    await step('typecheck (deno check)', () =>
      run(bin('deno'), ['check', '--node-modules-dir=manual', 'edge-functions/api/index.ts', ...denoScripts()], {
        env: toolEnv,
      }),
    );
  }
  if (wanted('lint')) await step('lint (eslint)', () => run(bin('eslint'), ['.', '--max-warnings=0']));
  if (wanted('lint'))
    await step('format (prettier --check)', () => run(bin('prettier'), ['--check', '.', '--log-level=warn']));
  if (wanted('lint')) await step('API document (redocly lint, recommended rules)', lintApiDocument);
  if (wanted('lint')) await step('SPA API types (src/lib/api/schema.d.ts as the document generates it)', checkApiTypes);
  if (wanted('unit')) await step('unit (vitest)', () => vitest('unit'));
  if (wanted('database')) {
    // Supabase's own checks run on the migrated schema before pgTAP adds its helpers.
    await step('supabase db advisors', () =>
      supabase(['db', 'advisors', `--remote=${testDb}`, '--level', 'info', '--fail-on', 'warn']),
    );
    await step('supabase db lint', () => supabase(['db', 'lint', `--remote=${testDb}`, '--fail-on', 'warning']));
    await step('pgTAP (pg_prove)', async () => {
      const setup = path.join(root, 'supabase/tests/000-setup.sql');
      if (existsSync(setup)) await run('psql', ['-v', 'ON_ERROR_STOP=1', '-q', testDb, '-f', setup]);
      const files = readdirSync(path.join(root, 'supabase/tests'))
        .filter((file) => file.endsWith('.test.sql'))
        .sort();
      // A file is named after the schema file it tests: NNx-topic.test.sql tests supabase/schemas/NN_*.sql
      // (00 for the rules of every area), x a letter of its own, so an id (30c) names one file.
      const areas = new Set(readdirSync(path.join(root, 'supabase/schemas')).map((file) => file.slice(0, 2)));
      const byId = new Map();
      for (const file of files) {
        const id = file.split('-')[0];
        if (!/^\d\d[a-z]$/.test(id) || !areas.has(id.slice(0, 2)))
          throw new Error(`supabase/tests: ${file} is not named NNx-topic.test.sql after a supabase/schemas/NN_*.sql`);
        if (byId.has(id)) throw new Error(`supabase/tests: ${byId.get(id)} and ${file} share the id ${id}`);
        byId.set(id, file);
      }
      await run('pg_prove', ['-d', testDb, ...files.map((file) => `supabase/tests/${file}`)]);
    });
    await step('database (vitest: concurrency, backups)', () => vitest('db', { DATABASE_URL: testDb }));
  }
  if (wanted('api')) {
    // The deployed function bundle is built here, so the API tests exercise exactly what we deploy.
    await step('api (function bundle + vitest, real Deno + Postgres)', async () => {
      await buildFunctionBundle();
      await vitest('api', { DATABASE_URL: testDb });
    });
    // Production's topology: the API (the deployed bundle included) behind a transaction pooler, as behind
    // Supavisor: no prepared statements, the live feed's LISTEN on a direct connection. The API tests once
    // more, less the files that never reach the pooler; the fixtures still read and write directly.
    await step('api through PgBouncer (transaction mode, DATABASE_PREPARE=false)', async () => {
      const pooler = await startPgBouncer(testDb);
      try {
        await vitest(
          'api',
          { DATABASE_URL: testDb, TEST_POOLER_URL: pooler.url },
          DIRECT_ONLY_API_TESTS.flatMap((file) => ['--exclude', file]),
        );
        const transactions = await pooler.transactions();
        if (transactions === 0) throw new Error('PgBouncer passed no transaction: the API did not go through it');
        console.log(`PgBouncer passed ${transactions} transactions to the database`);
      } finally {
        await pooler.stop();
      }
    });
  }
  if (wanted('e2e')) {
    await step('e2e (vitest + Chromium)', async () => {
      await run(bin('vite'), ['build', '--logLevel', 'warn']);
      await vitest('e2e', { DATABASE_URL: testDb });
    });
  }
} catch (error) {
  console.error(error.output ?? error.message);
  results.push({ name: 'setup', ok: false, seconds: 0 });
} finally {
  if (testDb && !process.env.KEEP_TEST_DB) await dropScratchDatabase(serverUrl, testDb).catch(() => {});
}

console.log('\n━━ summary');
for (const result of results)
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${result.seconds.toFixed(1)} s)`);
const failed = results.filter((result) => !result.ok).length;
console.log(`steps: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

/**
 * GET /api/openapi.json as the function generates it (scripts/openapi-document.ts: no server, no database),
 * linted with Redocly's recommended rules (redocly.yaml): any error fails the step.
 */
async function lintApiDocument() {
  await withApiDocument(async (file) => {
    await run(bin('redocly'), ['lint', file, '--config', 'redocly.yaml', '--format', 'stylish'], {
      env: { ...toolEnv, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
  });
}

/**
 * The SPA's client is typed from the document (src/lib/api/schema.d.ts): the committed types must be what the
 * current document generates, so the SPA cannot drift from the server.
 */
async function checkApiTypes() {
  await withApiDocument(async (file) => {
    if (!(await apiTypesAreCurrent(file)))
      throw new Error('src/lib/api/schema.d.ts differs from the API document: run `npm run api:types` and commit it');
  });
}

/** GET /api/openapi.json as the function generates it, in a temporary file for `use`. */
async function withApiDocument(use) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'openapi.json');
  try {
    await writeApiDocument(file);
    await use(file);
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** Deno programs beside the function: the scripts, and the tests' programs that run under Deno (`*.deno.ts`). */
function denoScripts() {
  const scripts = readdirSync(path.join(root, 'scripts'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `scripts/${file}`);
  const tests = readdirSync(path.join(root, 'tests/support'))
    .filter((file) => file.endsWith('.deno.ts'))
    .map((file) => `tests/support/${file}`);
  return [...scripts, ...tests];
}
