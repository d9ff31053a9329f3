// Small helpers for running the project's tools from Node scripts.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Environment for every Supabase CLI and Deno call: no telemetry, no update checks, plain TCP locally. */
export const toolEnv = {
  ...process.env,
  SUPABASE_TELEMETRY_DISABLED: '1',
  DENO_NO_UPDATE_CHECK: '1',
  DENO_NO_PROMPT: '1',
  PGSSLMODE: process.env.PGSSLMODE ?? 'disable',
};

/**
 * Runs a command to completion. Output is captured (and returned) when `capture` is set, otherwise it
 * streams to this process. Rejects with the output when the command fails.
 */
export function run(command, args, { capture = false, env = toolEnv, cwd = root, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else
        reject(
          Object.assign(new Error(`${path.basename(command)} ${args[0] ?? ''} failed (exit ${code})\n${output}`), {
            output,
            code,
          }),
        );
    });
  });
}

/** Polls a URL until it answers 200, or rejects after `timeoutMs`. */
export async function waitForOk(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A TCP port on loopback that nothing listens on now. */
export function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
