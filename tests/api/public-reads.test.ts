/**
 * Public match reads served from memory (edge-functions/api/public-reads.ts) must never show an old match
 * once it changed: not after this server's own admin write, not after a change the server only hears of
 * through the database's notification, and never to a request that asks for a fresh read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, Client, createMatch } from '../support/api.ts';
import { subscribe } from '../support/sse.ts';

describe('public match reads served from memory', () => {
  const api = apiSuite({ admin: true });
  const visitor = () => new Client(api.server.url);

  beforeAll(async () => {
    (await subscribe(`${api.server.url}/api/live/matches`)).close(); // the server's feed listens
  });

  it("shows an admin's change at once, in the match and in the lists, with a new ETag", async () => {
    const match = await createMatch(api.admin, { live: true });
    const before = await visitor().get(`/api/matches/${match.id}`);
    await visitor().get('/api/matches?status=live'); // both kept now
    const updated = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
      team1_score: '61/2',
      current_innings: 1,
      current_over: 8.1,
    });
    expect(updated.status).toBe(200);
    const after = await visitor().get(`/api/matches/${match.id}`, { 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.body.team1_score).toBe('61/2');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const list = await visitor().get('/api/matches?status=live');
    expect(list.body.find((m: { id: number }) => m.id === match.id).team1_score).toBe('61/2');
  });

  it('shows a change made elsewhere (another server process) once its notification arrives', async () => {
    const match = await createMatch(api.admin, { live: true });
    expect((await visitor().get(`/api/matches/${match.id}`)).body.team2_score).toBeNull();
    // the trigger notifies every server process, as for a change through another one
    await api.db`update public.matches set team2_score = '12/0' where id = ${match.id}`;
    let score: string | null = null;
    for (let waited = 0; score !== '12/0' && waited < 2000; waited += 50) {
      score = (await visitor().get(`/api/matches/${match.id}`)).body.team2_score;
      if (score !== '12/0') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(score).toBe('12/0');
  });

  it('reads the database for a request with Cache-Control: no-cache', async () => {
    const match = await createMatch(api.admin, { live: true });
    await visitor().get(`/api/matches/${match.id}`);
    // a change nobody is told of (triggers off for this session): only a fresh read can see it
    await api.db.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`update public.matches set venue = 'Eden Gardens' where id = ${match.id}`;
    });
    const fresh = await visitor().get(`/api/matches/${match.id}`, { 'cache-control': 'no-cache' });
    expect(fresh.body.venue).toBe('Eden Gardens');
  });

  it('keeps no answer for a match that does not exist', async () => {
    expect((await visitor().get('/api/matches/987654321')).status).toBe(404);
    expect((await visitor().get('/api/matches/987654321')).status).toBe(404);
  });
});
