/**
 * `npm start` as a user runs it: real embedded PostgreSQL in a fresh data folder, migrations pushed with
 * the Supabase CLI, the admin created, Deno serving the SPA and /api on one origin. Ctrl-C (SIGINT to the
 * process group) must leave no postgres or deno process behind, and a second start keeps the data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cricket-runtime-'));
chmodSync(dataDir, 0o755); // as root, the postgres user must be able to enter it

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
}

async function start(env: Record<string, string>): Promise<Started> {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL; // the embedded server is what we test
  const child = spawn('node', ['scripts/start.js'], {
    cwd: root,
    env: { ...inherited, ...env, EMBEDDED_PG_DIR: path.join(dataDir, 'pg') },
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
async function interrupt({ child }: Started) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGINT');
  await exited;
}

/**
 * Processes started for this test: deno inherits its unique EMBEDDED_PG_DIR; the postmaster (which
 * rewrites its environment area for its process title) names the data folder on its command line.
 */
function leftovers(): string[] {
  const marker = `EMBEDDED_PG_DIR=${path.join(dataDir, 'pg')}\0`;
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return ''; // gone, or not ours to read
    }
  };
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .map((pid) => ({ command: read(`/proc/${pid}/cmdline`).replaceAll('\0', ' '), environ: read(`/proc/${pid}/environ`) }))
    .filter(({ command, environ }) => environ.includes(marker) || command.includes(dataDir))
    .map(({ command }) => command);
}

describe('npm start', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves the SPA and /api on one origin, stops cleanly on Ctrl-C and keeps the data', async () => {
    const env = { PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()) };
    const first = await start(env);
    const base = `http://127.0.0.1:${env.PORT}`;
    expect(first.output()).toMatch(/Admin account: username "admin", password "[\w-]{16}"/);

    const html = await fetch(`${base}/`).then((response) => response.text());
    expect(html).toContain('<div id="root">');
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });

    await interrupt(first);
    expect(leftovers()).toEqual([]);

    const second = await start(env);
    expect(second.output()).not.toContain('Admin account'); // the admin from the first start is still there
    expect(second.output()).not.toContain('New database');
    await interrupt(second);
    expect(leftovers()).toEqual([]);
  });
});
