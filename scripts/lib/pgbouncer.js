// PgBouncer in transaction mode in front of a test database, as Supavisor's transaction pooler (port 6543)
// stands in front of a Supabase database: each transaction gets whichever server connection is free, so
// nothing may outlive a transaction on a connection (prepared statements, session settings, LISTEN).
// Debian's `pgbouncer` (installed with apt as root when missing). It refuses to run as root: as root it runs
// as the `postgres` user.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { freePort } from './processes.js';
import { stopChild } from './supervisor.js';
import { aptInstall } from './system.js';

const PROGRAM = '/usr/sbin/pgbouncer';

/**
 * Starts PgBouncer for `databaseUrl` (its server, user and password) and resolves with the URL of the same
 * database through it, and `stop()`.
 */
export async function startPgBouncer(databaseUrl) {
  if (!existsSync(PROGRAM)) aptInstall(['pgbouncer'], 'PgBouncer (the API tests through a transaction pooler)');
  const target = new URL(databaseUrl);
  const dbname = target.pathname.slice(1);
  const user = decodeURIComponent(target.username) || 'postgres';
  const password = decodeURIComponent(target.password);
  const port = await freePort();
  const folder = mkdtempSync(path.join(tmpdir(), 'cricket-pgbouncer-')); // 0700: it may hold the password
  const server = [`host=${target.hostname}`, `port=${target.port || 5432}`, `dbname=${dbname}`, `user=${user}`];
  if (password) server.push(`password=${password}`);
  writeFileSync(path.join(folder, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    path.join(folder, 'pgbouncer.ini'),
    [
      '[databases]',
      `${dbname} = ${server.join(' ')}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // clients on loopback only, the test harness's own
      'auth_type = trust',
      `stats_users = ${user}`,
      `auth_file = ${path.join(folder, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 2000',
      // a few API servers' pools share these, as function instances share Supavisor's
      'default_pool_size = 20',
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    for (const file of [folder, path.join(folder, 'users.txt'), path.join(folder, 'pgbouncer.ini')])
      chownSync(file, id('-u'), id('-g'));
  }
  const child = spawn(PROGRAM, [...(asRoot ? ['--user=postgres'] : []), path.join(folder, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PgBouncer did not start within 10 s:\n${log}`)), 10_000);
    child.stderr.on('data', () => {
      if (/process up/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PgBouncer exited (${code}):\n${log}`));
    });
  });
  const pooled = new URL(databaseUrl);
  pooled.hostname = '127.0.0.1';
  pooled.port = String(port);
  pooled.password = '';
  const consoleUrl = new URL(pooled);
  consoleUrl.pathname = '/pgbouncer';
  return {
    url: pooled.toString(),
    /** Transactions PgBouncer has passed to the database so far (its admin console's SHOW STATS). */
    transactions: async () => {
      const admin = postgres(consoleUrl.toString(), { max: 1, fetch_types: false, onnotice: () => {} });
      try {
        const rows = await admin`show stats`.simple();
        return rows
          .filter((row) => row.database === dbname)
          .reduce((sum, row) => sum + Number(row.total_xact_count), 0);
      } finally {
        await admin.end();
      }
    },
    stop: async () => {
      await stopChild(child, 'SIGINT', 10_000);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
