/**
 * The SSE feed survives a real PostgreSQL restart: the server's LISTEN connection dies with the database,
 * and the feed listens again once it is back. Uses its own embedded PostgreSQL, so stopping it disturbs no
 * other test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createMatch, database, startServer, type TestServer } from '../support/api.ts';
import { ownPostgres, type OwnPostgres } from '../support/own-postgres.ts';

describe('live feed across a PostgreSQL restart', () => {
  let pg: OwnPostgres;
  let server: TestServer;

  beforeAll(async () => {
    pg = await ownPostgres();
    server = await startServer({ databaseUrl: pg.url });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await pg?.remove();
  });

  it('delivers updates again after the database comes back', async () => {
    const db = database(pg.url);
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

    // The session survived in the database; keep updating until the event arrives (the feed listens again
    // within moments of the database taking connections).
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
