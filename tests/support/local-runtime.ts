/**
 * Driving `npm start` (node scripts/start.js) as a user does, for the local-runtime E2E tests: its own
 * process group (a terminal's foreground job), a temporary embedded data folder, free ports.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');

/** Polls `check` every 100 ms until it is true or `ms` have passed; returns whether it became true. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) {
    if (await check().catch(() => false)) return true;
  }
  return false;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A temporary folder for embedded data folders (as root, the postgres user must be able to enter it). */
export function runtimeFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'cricket-runtime-'));
  chmodSync(folder, 0o755);
  return folder;
}

/**
 * The URL of an embedded cluster `npm start` created: its password is the cluster's own, in the file beside
 * the data folder that only its owner can read.
 */
export function embeddedUrl(dataDir: string, port: string | number): string {
  const password = readFileSync(`${dataDir}.password`, 'utf8').trim();
  return `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`;
}

/**
 * The environment of a local runtime: the embedded server and its own key for two-factor secrets (never an
 * inherited DATABASE_URL or TOTP_ENCRYPTION_KEY).
 */
export function runtimeEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.TOTP_ENCRYPTION_KEY;
  return { ...inherited, ...env };
}

export interface Started {
  child: ChildProcess;
  output: () => string;
}

/**
 * `npm start` with `env` (EMBEDDED_PG_DIR, ports, …); resolves once it printed "Ready". `user`: as that user
 * (root only: through runuser, which keeps the environment and joins the process group).
 */
export async function start(env: Record<string, string>, { user }: { user?: string } = {}): Promise<Started> {
  const [command, ...args] = [...(user ? ['runuser', '-u', user, '--'] : []), 'node', 'scripts/start.js'];
  const child = spawn(command, args, {
    cwd: root,
    env: runtimeEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, like a terminal's foreground job
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within 90 s:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      if (output.includes('Ready: http://localhost:')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  return { child, output: () => output };
}

/** Ctrl-C in a terminal signals the whole foreground process group. */
export async function interrupt({ child }: Started) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGINT');
  await exited;
}

/** Runs one of the npm scripts' programs (e.g. scripts/db-backup.js) to completion: exit code and output. */
export async function runScript(file: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [file, ...args], { cwd: root, env: runtimeEnv(env) });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/**
 * Processes started for a data folder: deno inherits its unique EMBEDDED_PG_DIR; the postmaster (which
 * rewrites its environment area for its process title) names the data folder on its command line.
 */
export function leftovers(dataDir: string): string[] {
  const marker = `EMBEDDED_PG_DIR=${dataDir}\0`;
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return ''; // gone, or not ours to read
    }
  };
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .map((pid) => ({
      command: read(`/proc/${pid}/cmdline`).replaceAll('\0', ' '),
      environ: read(`/proc/${pid}/environ`),
    }))
    .filter(({ command, environ }) => environ.includes(marker) || command.includes(dataDir))
    .map(({ command }) => command);
}
