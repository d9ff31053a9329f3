/**
 * Starts the real local server (Deno running the `api` function and, with `staticDir`, the built SPA)
 * on a free port for API and E2E tests. Nothing is faked: the process is the one `npm start` runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(import.meta.dirname, '../..');

export interface TestServer {
  url: string;
  /** The server's JSON log lines so far (request logs included), with `keepLogs`. */
  logs?: Record<string, unknown>[];
  stop(): Promise<void>;
}

/**
 * The PROXY_SECRET of the tests' servers: the tests play the static host in front of the function, so their
 * clients show it (X-Proxy-Secret) and the server believes their X-Forwarded-For.
 */
export const TEST_PROXY_SECRET = 'test-proxy-secret';

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through \`npm test\` (scripts/test.js)`);
  return value;
}

export interface ServerOptions {
  databaseUrl?: string;
  staticDir?: string;
  env?: Record<string, string>;
  /**
   * A self-contained program (the deployed function bundle) instead of scripts/local-server.ts: run from
   * its own folder with no config file, no npm packages and no remote modules, so it cannot lean on
   * anything outside itself.
   */
  selfContained?: string;
  /** Keep the server's JSON log lines (TestServer.logs). */
  keepLogs?: boolean;
}

/**
 * The database of a test server. Through the transaction pooler when the run has one (TEST_POOLER_URL, set
 * by scripts/test.js for its pass through PgBouncer): as behind Supavisor, without prepared statements and
 * with the live feed's LISTEN on a direct connection. A server given its own database stays direct.
 */
function databaseEnv(options: ServerOptions): Record<string, string> {
  if (options.databaseUrl) return { DATABASE_URL: options.databaseUrl };
  const direct = requireEnv('DATABASE_URL');
  const pooler = process.env.TEST_POOLER_URL;
  if (!pooler) return { DATABASE_URL: direct };
  return { DATABASE_URL: pooler, DATABASE_PREPARE: 'false', DATABASE_LISTEN_URL: direct };
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const program = options.selfContained
    ? ['--no-config', '--no-npm', '--no-remote', path.basename(options.selfContained)]
    : ['--node-modules-dir=manual', '--unstable-net', 'scripts/local-server.ts'];
  const child = spawn(
    path.join(root, 'node_modules/.bin/deno'),
    ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', ...program],
    {
      cwd: options.selfContained ? path.dirname(options.selfContained) : root,
      env: {
        ...process.env,
        DENO_NO_UPDATE_CHECK: '1',
        ...databaseEnv(options),
        PORT: '0',
        STATIC_DIR: options.staticDir ?? '',
        PAYMENT_SANDBOX: 'true',
        // Tests play the proxy: API tests vary X-Forwarded-For so per-IP limits never couple them.
        TRUST_PROXY_HOPS: '1',
        PROXY_SECRET: TEST_PROXY_SECRET,
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const logs: Record<string, unknown>[] = [];
  const port = await listeningPort(child, options.keepLogs ? logs : undefined);
  return {
    url: `http://127.0.0.1:${port}`,
    logs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin?.end(); // the local server exits at EOF (the function bundle does not watch its stdin)
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Reads the server's log until its "listening" line, which carries the port it was given; with `logs`, goes on
 * reading and keeps every JSON line there.
 */
function listeningPort(child: ChildProcess, logs?: Record<string, unknown>[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error('server did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line);
        logs?.push(entry);
        if (entry.msg === 'listening') {
          clearTimeout(timer);
          resolve(entry.port);
        }
      } catch {
        // not a JSON log line
      }
    });
  });
}
