// Running our Deno programs. Always from the repository root with `--node-modules-dir=manual`, so Deno
// resolves npm packages (and @types/node for node: built-ins) from the node_modules npm installed, offline,
// and the API code's import aliases (`@/…`, `@shared/…`) from the root deno.json.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { bin, root, run, toolEnv } from './processes.js';

// --unstable-net: SO_REUSEPORT (Deno.serve `reusePort`), which lets the server's workers share one port.
const DENO_FLAGS = [
  '--node-modules-dir=manual',
  '--unstable-net',
  '--allow-net',
  '--allow-env',
  '--allow-read',
  '--allow-sys',
];

/** V8's old-space limit of each server worker (MiB) unless API_WORKER_HEAP_MB says otherwise. */
export const DEFAULT_WORKER_HEAP_MB = 128;

/** API_WORKER_HEAP_MB (default DEFAULT_WORKER_HEAP_MB): the heap limit `npm start` gives each server worker. */
export function workerHeapMb() {
  const mb = Number(process.env.API_WORKER_HEAP_MB ?? DEFAULT_WORKER_HEAP_MB);
  if (!Number.isInteger(mb) || mb < 16) throw new Error('API_WORKER_HEAP_MB must be a whole number of MiB ≥ 16.');
  return mb;
}

/**
 * What keeps a server worker within its memory budget (docs/performance.md, "Memory"): V8's heap limit, and
 * glibc's allocator told to hand freed native memory back to the system instead of keeping it in
 * per-thread arenas.
 */
function workerRuntime(heapMb = workerHeapMb()) {
  return {
    flags: [`--v8-flags=--max-old-space-size=${heapMb}`],
    env: { MALLOC_ARENA_MAX: '2' },
  };
}

/** Runs a Deno script to completion, its output streamed. */
export function runDeno(script, args = [], env = {}) {
  return run(bin('deno'), ['run', ...DENO_FLAGS, script, ...args], { env: { ...toolEnv, ...env } });
}

/**
 * Starts a long-running Deno program. Its stdin is a pipe it watches: when we exit, the pipe closes and
 * it exits too, so no Deno process outlives us. `quiet` drops its standard output (request logs), `piped`
 * leaves it to the caller (child.stdout); `worker` runs it within a server worker's memory budget (its heap
 * `heapMb`, default API_WORKER_HEAP_MB's).
 */
export function startDeno(script, env = {}, { quiet = false, piped = false, worker = false, heapMb } = {}) {
  const runtime = worker ? workerRuntime(heapMb) : { flags: [], env: {} };
  return spawn(bin('deno'), ['run', ...DENO_FLAGS, ...runtime.flags, script], {
    cwd: root,
    env: { ...toolEnv, ...runtime.env, ...env },
    stdio: ['pipe', piped ? 'pipe' : quiet ? 'ignore' : 'inherit', 'inherit'],
  });
}

/**
 * Starts one worker of the local web server (scripts/local-server.ts) and resolves once it listens (rejects
 * if it exits first). It runs in its own process group: a Ctrl-C in the terminal reaches only `npm start`,
 * which then asks each worker to finish its requests (SIGTERM). Its log lines are passed through.
 * @returns {Promise<import('./supervisor.js').Running>}
 */
export function startServerWorker(env) {
  const runtime = workerRuntime();
  const child = spawn(bin('deno'), ['run', ...DENO_FLAGS, ...runtime.flags, 'scripts/local-server.ts'], {
    cwd: root,
    env: { ...toolEnv, ...runtime.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      console.log(line);
      if (line.includes('"msg":"listening"')) resolve({ child, lastWords: () => '' });
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`the server exited (${signal ?? `exit code ${code}`}) before listening`)),
    );
  });
}
