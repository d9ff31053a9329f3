// `npm run db:restore -- <file> [--force]`: restores a dump made by `npm run db:backup` (pg_restore, one
// transaction: all or nothing). The database: DATABASE_URL, else the embedded one (EMBEDDED_PG_DIR), which
// must not be serving (stop `npm start` first): a missing data folder is created fresh. A database that
// already holds tables is replaced only with --force (dropped and created again, then restored). The dump's
// `<dump>.totp-key` becomes the embedded cluster's key for two-factor secrets; with DATABASE_URL, give the API
// that key as TOTP_ENCRYPTION_KEY.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { openForMaintenance } from './lib/database.js';
import { clientTool, libpqTarget } from './lib/pg-tools.js';
import { root, run } from './lib/processes.js';
import { serverMajor } from './lib/system.js';

const args = process.argv.slice(2);
const force = args.includes('--force');
const file = args.find((arg) => !arg.startsWith('--'));
const log = (message) => console.log(`[db:restore] ${message}`);

/** Tables outside PostgreSQL's own schemas: any means the database is in use. */
async function tableCount(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`
      select count(*)::int as tables from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;
    return row.tables;
  } finally {
    await sql.end();
  }
}

/** Drops the database and creates it empty again (from the server's maintenance database). */
async function recreate(url) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = name === 'template1' ? '/postgres' : '/template1';
  const sql = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql`drop database ${sql(name)} with (force)`;
    await sql`create database ${sql(name)}`;
  } finally {
    await sql.end();
  }
}

/** Supabase's API roles (cluster-wide, so not in a database dump), created where missing. */
async function ensureRoles(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(readFileSync(path.join(root, 'supabase', 'roles.sql'), 'utf8'));
  } finally {
    await sql.end();
  }
}

let database;
try {
  if (!file) throw new Error('Usage: npm run db:restore -- <file.dump> [--force]');
  if (!existsSync(file)) throw new Error(`No such file: ${file}`);
  database = await openForMaintenance({ mustBeStopped: true, log });
  const tables = await tableCount(database.url);
  if (tables > 0 && !force) {
    throw new Error(
      `The database already holds ${tables} tables; restoring would replace them. Run again with --force to replace it.`,
    );
  }
  if (tables > 0) {
    log('Replacing the existing database (--force) …');
    await recreate(database.url);
  }
  await ensureRoles(database.url);
  const pgRestore = clientTool('pg_restore', await serverMajor(database.url));
  const { dbname, env } = libpqTarget(database.url);
  await run(pgRestore, ['--exit-on-error', '--single-transaction', '--no-owner', `--dbname=${dbname}`, file], {
    env,
    capture: true,
  });
  log(`Restored ${file}.`);
  const keyFile = `${file}.totp-key`;
  if (existsSync(keyFile) && database.keepTotpKey) database.keepTotpKey(readFileSync(keyFile, 'utf8').trim());
  else if (existsSync(keyFile))
    log(`Its two-factor secrets are sealed with the key in ${keyFile}: TOTP_ENCRYPTION_KEY.`);
  await database.close();
} catch (error) {
  console.error(`[db:restore] ${error.message}`);
  await database?.close();
  process.exit(1);
}
