/** Debian's Chromium driven by playwright-core (no browser downloads on our machines), and the E2E files' frame. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { requireEnv, startServer, type TestServer } from './server.ts';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where E2E tests leave their screenshots. */
export const artifacts = path.resolve(import.meta.dirname, '../../test-results');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

export interface BrowserSuite {
  /** The server of the built SPA and the API (set before the file's tests run). */
  readonly server: TestServer;
  /** A new browser context, closed after the file's tests. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/**
 * The frame of an E2E file: before its tests, `setup` writes the file's own data (a live match of its own,
 * so that files never bet on each other's), the sign-in log is emptied (the files share the database and the
 * per-address registration limits), and the built SPA's server (with `env` added to its environment) and a
 * browser start; after them, every context opened with `newContext` closes and both stop.
 */
export function browserSuite(
  setup?: (sql: postgres.Sql) => Promise<void>,
  { env }: { env?: Record<string, string> } = {},
): BrowserSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    const sql = postgres(requireEnv('DATABASE_URL'), { max: 1, onnotice: () => {} });
    try {
      await setup?.(sql);
      await sql`delete from app.login_attempts`;
    } finally {
      await sql.end();
    }
    [server, browser] = await Promise.all([startServer({ staticDir: 'dist', env }), launchBrowser()]);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  return {
    get server() {
      if (!server) throw new Error('browserSuite: the server starts in beforeAll');
      return server;
    },
    async newContext(options) {
      if (!browser) throw new Error('browserSuite: the browser starts in beforeAll');
      const context = await browser.newContext(options);
      contexts.push(context);
      return context;
    },
  };
}
