// `npm run db:backup [-- --dir <folder>]`: a consistent dump of the database (pg_dump, custom format) in
// <folder> (default .data/backups), named by the time it was taken. pg_dump reads one snapshot, so the dump
// is consistent while `npm start` keeps serving; without it, the embedded server is started for the dump.
// The database: DATABASE_URL, else the embedded one (EMBEDDED_PG_DIR, EMBEDDED_PG_PORT). Beside the dump,
// `<dump>.totp-key` (0600): the key its two-factor secrets are sealed with (TOTP_ENCRYPTION_KEY, else the
// embedded cluster's own), without which no admin with a second factor could sign in to the restored data.
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openForMaintenance } from './lib/database.js';
import { clientTool, libpqTarget } from './lib/pg-tools.js';
import { root, run } from './lib/processes.js';
import { serverMajor } from './lib/system.js';

const dirFlag = process.argv.indexOf('--dir');
const folder = path.resolve(dirFlag > 0 ? process.argv[dirFlag + 1] : path.join(root, '.data', 'backups'));
const log = (message) => console.log(`[db:backup] ${message}`);

let database;
try {
  database = await openForMaintenance({ mustExist: true, log });
  const pgDump = clientTool('pg_dump', await serverMajor(database.url));
  // A dump holds every account's data: its folder is the user's alone (the folders above it stay enterable,
  // as root the embedded server's postgres user must reach .data/postgres)
  mkdirSync(path.dirname(folder), { recursive: true });
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, `cricket-${new Date().toISOString().replace(/[:.]/g, '-')}.dump`);
  const partial = `${file}.partial`; // a dump cut short never looks like a backup
  const { dbname, env } = libpqTarget(database.url);
  try {
    await run(pgDump, ['--format=custom', `--file=${partial}`, `--dbname=${dbname}`], { env, capture: true });
    const totpKey = database.totpKey();
    if (totpKey) writeFileSync(`${file}.totp-key`, `${totpKey}\n`, { mode: 0o600 });
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  log(
    `Wrote ${file} (${Math.ceil(statSync(file).size / 1024)} KiB). Restore with: npm run db:restore -- ${path.relative(process.cwd(), file)}`,
  );
  await database.close();
} catch (error) {
  console.error(`[db:backup] ${error.message}`);
  await database?.close();
  process.exit(1);
}
