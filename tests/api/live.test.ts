/**
 * GET /api/live/matches (edge-functions/api/routes/live.ts): Server-Sent Events fed by ONE shared LISTEN
 * connection per process, capped at LIVE_MAX_STREAMS; and a player's token for their own Realtime topic.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { apiSuite, Client, createMatch, fund, registerPlayer, settled, startServer, type Db } from '../support/api.ts';
import { subscribe } from '../support/sse.ts';

/** This file's server names its connections, so other files' servers (running in parallel) are not counted. */
const APPLICATION_NAME = `live-test-${randomUUID()}`;

async function listenConnections(db: Db): Promise<number> {
  const [{ count }] = await db`
    select count(*)::int as count from pg_stat_activity
    where application_name = ${APPLICATION_NAME} and query ilike 'listen %'`;
  return count;
}

describe('GET /api/live/matches', () => {
  const api = apiSuite({ admin: true, server: { env: { PGAPPNAME: APPLICATION_NAME } } });

  it('delivers a live-score update to a subscriber within 1 s', async () => {
    const match = await createMatch(api.admin, { live: true });
    const client = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    try {
      const started = Date.now();
      const updated = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
        team1_score: '45/1',
        team2_score: '',
        current_innings: 1,
        current_over: 5.2,
      });
      expect(updated.status).toBe(200);
      // the event is the new state itself: no one has to read the match back
      expect(await client.nextWhere((event) => event.team1_score === '45/1', 1000)).toMatchObject({
        id: match.id,
        status: 'live',
        team1_score: '45/1',
        current_innings: 1,
        current_over: 5.2,
        version: 3,
        team1: { id: 1, short_name: 'MI' },
        team2: { id: 2, short_name: 'CSK' },
      });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      client.close();
    }
  });

  it("says ': connected' only once it listens: a notification right after it reaches the first client", async () => {
    const fresh = await startServer(); // its feed has not listened yet
    try {
      const client = await subscribe(`${fresh.url}/api/live/matches?id=424242`);
      try {
        // as the trigger on public.matches does, but at once (a PATCH would give the LISTEN time to land)
        await api.db`select pg_notify('match_updates', ${JSON.stringify({ id: 424242, status: 'live' })})`;
        expect(await client.next()).toEqual({ id: 424242, status: 'live' });
      } finally {
        client.close();
      }
    } finally {
      await fresh.stop();
    }
  });

  it('filters by ?id= and reports settlement', async () => {
    const watched = await createMatch(api.admin, { live: true });
    const other = await createMatch(api.admin, { live: true });
    const client = await subscribe(`${api.server.url}/api/live/matches?id=${watched.id}`);
    try {
      await api.admin.client.patch(`/api/admin/matches/${other.id}/update-live`, {
        current_innings: 2,
        current_over: 1,
      });
      await api.admin.client.patch(`/api/admin/matches/${watched.id}/declare-winner`, {
        winning_team_id: watched.team1_id,
      });
      // skips only the watched match's own earlier states (its start may still be on its way): any event of
      // the other match would fail the filter
      const event = await client.nextWhere((update) => update.id !== watched.id || update.status === 'completed');
      expect(event).toMatchObject({ id: watched.id, status: 'completed' });
    } finally {
      client.close();
    }
  });

  it('reports a match starting and being abandoned', async () => {
    const match = await createMatch(api.admin);
    const client = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    try {
      expect((await api.admin.client.patch(`/api/admin/matches/${match.id}/start`)).status).toBe(200);
      // the match's creation may still be on its way when the client connects
      expect(await client.nextWhere((event) => event.status !== 'upcoming')).toMatchObject({
        id: match.id,
        status: 'live',
      });
      expect((await api.admin.client.patch(`/api/admin/matches/${match.id}/abandon`)).status).toBe(200);
      expect(await client.next()).toMatchObject({ id: match.id, status: 'completed' });
    } finally {
      client.close();
    }
  });

  it('serves 200 concurrent clients from one LISTEN connection', async () => {
    const match = await createMatch(api.admin, { live: true });
    const clients = await Promise.all(
      Array.from({ length: 200 }, () => subscribe(`${api.server.url}/api/live/matches`)),
    );
    try {
      expect(await listenConnections(api.db)).toBe(1);
      await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
        current_innings: 1,
        current_over: 7,
      });
      const received = await Promise.all(clients.map((client) => client.next(5000)));
      expect(received.every((update) => update.id === match.id)).toBe(true);
    } finally {
      clients.forEach((client) => client.close());
    }
  });

  it('recovers when the LISTEN connection is cut', async () => {
    const match = await createMatch(api.admin, { live: true });
    const client = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    try {
      const cut = await api.db`select pid from pg_stat_activity
               where application_name = ${APPLICATION_NAME} and query ilike 'listen %'`;
      await api.db`select pg_terminate_backend(pid) from unnest(${cut.map((row) => row.pid)}::int[]) pid`;
      // gone (an update committed before would still reach the clients through it)
      for (let gone = false; !gone; await new Promise((resolve) => setTimeout(resolve, 20))) {
        [{ gone }] = await api.db`select not exists (select 1 from pg_stat_activity
                                  where pid = any(${cut.map((row) => row.pid)}::int[])) as gone`;
      }
      // Updates sent while the feed is reconnecting may be lost (pages also poll); keep updating until one arrives.
      const deadline = Date.now() + 20_000;
      let update;
      for (let over = 1; !update && Date.now() < deadline; over++) {
        await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
          current_innings: 1,
          current_over: over % 20,
        });
        update = await client.next(2000).catch(() => undefined);
      }
      expect(update).toMatchObject({ id: match.id, status: 'live' });
      expect(client.gaps, 'after the LISTEN was down, clients are told to refetch once').toBeGreaterThanOrEqual(1);
    } finally {
      client.close();
    }
  });

  it('resumes with Last-Event-ID: exactly the updates missed, none twice', async () => {
    const match = await createMatch(api.admin, { live: true });
    const score = (team1_score: string) =>
      api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
        team1_score,
        current_innings: 1,
        current_over: 1,
      });
    const first = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    await score('10/0');
    expect(await first.nextWhere((event) => event.team1_score === '10/0')).toMatchObject({ team1_score: '10/0' });
    const seen = first.lastEventId!;
    first.close();

    await score('20/0');
    await score('30/1');
    const resumed = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`, { lastEventId: seen });
    try {
      expect(await resumed.next()).toMatchObject({ team1_score: '20/0' });
      expect(await resumed.next()).toMatchObject({ team1_score: '30/1' });
      await score('40/1');
      expect(await resumed.next()).toMatchObject({ team1_score: '40/1' });
      await expect(resumed.next(500)).rejects.toThrow('no match event');
      expect(resumed.gaps).toBe(0);
    } finally {
      resumed.close();
    }
  });

  it('answers a Last-Event-ID it cannot replay (another server process, a restart) with one gap', async () => {
    const client = await subscribe(`${api.server.url}/api/live/matches`, { lastEventId: 'elsewhere-12' });
    try {
      for (let waited = 0; client.gaps === 0 && waited < 2000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(client.gaps).toBe(1);
    } finally {
      client.close();
    }
  });

  it('sends the public match in an event, nothing else', async () => {
    const match = await createMatch(api.admin, { live: true });
    const client = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    try {
      await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
        team1_score: '5/0',
        current_innings: 1,
        current_over: 0.5,
      });
      const event = await client.nextWhere((update) => update.team1_score === '5/0');
      const answer = (await api.admin.client.get(`/api/matches/${match.id}`)).body;
      expect(Object.keys(event).sort()).toEqual(Object.keys(answer).sort());
      expect(event).toEqual(answer); // the public answer itself: no private field can ride along
    } finally {
      client.close();
    }
  });
});

describe('GET /api/live/matches with a client that cannot keep up', () => {
  const api = apiSuite({ admin: true, server: { env: { LIVE_CLIENT_QUEUE: '16' } } });

  it('drops it instead of buffering without bound, and keeps serving the others', async () => {
    const match = await createMatch(api.admin, { live: true });
    const fast = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    // A client that asks for the stream and then never reads a byte.
    const slow = connect(Number(new URL(api.server.url).port), '127.0.0.1');
    slow.write(
      'GET /api/live/matches HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n',
    );
    slow.pause();
    const ended = new Promise<void>((resolve) => slow.once('end', resolve).once('close', resolve));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // its stream is open
      // Far more than the socket buffers hold: 2,000 events of 7 KB (of a match nobody else watches).
      await api.db`select pg_notify('match_updates', json_build_object('id', -1, 'status', 'live', 'version', g, 'pad', repeat('x', 7000))::text)
               from generate_series(1, 2000) g`;
      await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
        team1_score: '1/0',
        current_innings: 1,
        current_over: 0.1,
      });
      expect(await fast.nextWhere((event) => event.team1_score === '1/0')).toMatchObject({
        id: match.id,
        team1_score: '1/0',
      });
      slow.resume(); // reads what the kernel buffered, then the end the server wrote
      await expect(
        Promise.race([
          ended.then(() => 'dropped'),
          new Promise((resolve) => setTimeout(() => resolve('still open'), 20_000)),
        ]),
      ).resolves.toBe('dropped');
    } finally {
      fast.close();
      slow.destroy();
    }
  }, 40_000);

  it("pushes a player the results of their own bets as their match is settled, and nobody else's", async () => {
    const [winner, loser, bystander] = await Promise.all([
      registerPlayer(api.server),
      registerPlayer(api.server),
      registerPlayer(api.server),
    ]);
    await Promise.all([fund(api.server, winner, 2000), fund(api.server, loser, 2000)]);
    const match = await createMatch(api.admin, { live: true, team1: 1, team2: 2 });
    expect((await winner.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 2000 })).status).toBe(201);
    expect((await loser.client.post('/api/bets', { match_id: match.id, team_id: 2, amount: 1000 })).status).toBe(201);
    const streams = await Promise.all(
      [winner, loser, bystander].map((player) =>
        subscribe(`${api.server.url}/api/live/matches`, { cookie: player.client.cookie }),
      ),
    );
    const anonymous = await subscribe(`${api.server.url}/api/live/matches`);
    try {
      await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
      await settled(api.db, match.id);
      const [forWinner, forLoser, forBystander] = streams;
      for (
        let waited = 0;
        (forWinner.results.length === 0 || forLoser.results.length === 0) && waited < 5000;
        waited += 50
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(forWinner.results).toEqual([
        { match_id: match.id, match: 'MI vs CSK', outcome: 'won', amount: 6000, team: 'Mumbai Indians' },
      ]);
      expect(forLoser.results).toEqual([
        { match_id: match.id, match: 'MI vs CSK', outcome: 'lost', amount: 1000, team: 'Chennai Super Kings' },
      ]);
      expect(forBystander.results).toEqual([]);
      expect(anonymous.results).toEqual([]);
    } finally {
      [...streams, anonymous].forEach((stream) => stream.close());
    }
  });

  it('gives a signed-in player a token for their own Realtime topic of results, where Realtime is configured', async () => {
    const player = await registerPlayer(api.server);
    expect(await player.client.get('/api/live/token')).toMatchObject({
      status: 404,
      body: { message: 'Realtime is not configured' },
    });

    const secret = 'test-realtime-jwt-secret';
    const server = await startServer({ env: { SUPABASE_JWT_SECRET: secret } });
    try {
      const client = new Client(server.url, player.client.ip);
      client.cookie = player.client.cookie;
      const answer = await client.get('/api/live/token');
      expect(answer.status).toBe(200);
      const [header, payload, signature] = answer.body.token.split('.');
      expect(signature).toBe(createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url'));
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      expect(claims).toMatchObject({
        role: 'authenticated',
        aud: 'authenticated',
        sub: String(player.id),
        user_id: player.id,
      });
      expect(claims.exp - claims.iat).toBe(300); // 5 minutes: the SPA renews it, a session that has ended gets none
      expect(Date.parse(answer.body.expires_at)).toBe(claims.exp * 1000);
      expect((await new Client(server.url).get('/api/live/token')).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});

describe('live stream cap', () => {
  const api = apiSuite({ server: { env: { LIVE_MAX_STREAMS: '2' } } });

  it('answers 503 Too many live connections beyond the cap, and serves again when one closes', async () => {
    const open = await Promise.all(
      [0, 1].map(async () => {
        const abort = new AbortController();
        const response = await fetch(`${api.server.url}/api/live/matches`, { signal: abort.signal });
        expect(response.status).toBe(200);
        const reader = response.body!.getReader();
        await reader.read(); // ': connected'
        return { abort, reader };
      }),
    );
    const refused = await fetch(`${api.server.url}/api/live/matches`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ message: 'Too many live connections' });
    expect(refused.headers.get('retry-after')).toBe('30');

    open[0].abort.abort();
    let status = 0;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && status !== 200;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await new Client(api.server.url).streamStatus('/api/live/matches');
    }
    expect(status).toBe(200);
    open[1].abort.abort();
  });
});
