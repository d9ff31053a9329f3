// Running our Deno programs. Always from the repository root with `--node-modules-dir=manual`, so Deno
// resolves npm packages (and @types/node for node: built-ins) from the node_modules npm installed, offline.
import { spawn } from 'node:child_process';
import { bin, root, run, toolEnv } from './processes.js';

const DENO_FLAGS = ['--node-modules-dir=manual', '--allow-net', '--allow-env', '--allow-read', '--allow-sys'];

/** Runs a Deno script to completion, its output streamed. */
export function runDeno(script, args = [], env = {}) {
  return run(bin('deno'), ['run', ...DENO_FLAGS, script, ...args], { env: { ...toolEnv, ...env } });
}

/**
 * Starts a long-running Deno program. Its stdin is a pipe it watches: when we exit, the pipe closes and
 * it exits too, so no Deno process outlives us. `quiet` drops its standard output (request logs).
 */
export function startDeno(script, env = {}, { quiet = false } = {}) {
  return spawn(bin('deno'), ['run', ...DENO_FLAGS, script], {
    cwd: root,
    env: { ...toolEnv, ...env },
    stdio: ['pipe', quiet ? 'ignore' : 'inherit', 'inherit'],
  });
}
