/**
 * The public match reads, /api/matches (edge-functions/api/routes/matches.ts): both prices in every answer, and
 * reads served from memory (edge-functions/api/public-reads.ts) that must never show an old match once it changed:
 * not after this server's own admin write, not after a change the server only hears of through the database's
 * notification, and never to a request that asks for a fresh read. And because a shared cache keeps them for
 * everyone, they must be the same for every caller: nothing of the signed-in player who asked (their bets, their
 * balance, a cookie) may be in them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PRIVATE_CACHE_CONTROL, PUBLIC_MATCH_CACHE_CONTROL } from '../../src/domain/live-updates.ts';
import { apiSuite, Client, createMatch, fund, registerPlayer } from '../support/api.ts';
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

  describe('what a shared cache may keep', () => {
    it('answers a player who bet on the match, an admin and a stranger byte for byte the same, shareable', async () => {
      const match = await createMatch(api.admin, { live: true });
      const player = await registerPlayer(api.server);
      await fund(api.server, player, 5000);
      expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 })).status).toBe(
        201,
      );
      for (const path of [
        `/api/matches/${match.id}`,
        '/api/matches?status=live',
        '/api/matches?status=upcoming',
        '/api/matches',
      ]) {
        const answers = await Promise.all([visitor().get(path), player.client.get(path), api.admin.client.get(path)]);
        for (const answer of answers) {
          expect(answer.status, path).toBe(200);
          expect(answer.headers.get('cache-control'), path).toBe(PUBLIC_MATCH_CACHE_CONTROL);
          expect(answer.headers.get('set-cookie'), path).toBeNull();
          expect(answer.headers.get('vary') ?? '', path).not.toMatch(/cookie|authorization/i);
          expect(answer.text, path).toBe(answers[0].text);
          expect(answer.headers.get('etag'), path).toBe(answers[0].headers.get('etag'));
        }
        expect(answers[0].text).not.toContain(player.username);
      }
    });

    it('says the same on a 304, so a cache that revalidates keeps sharing the answer', async () => {
      const match = await createMatch(api.admin, { live: true });
      const first = await visitor().get(`/api/matches/${match.id}`);
      const again = await visitor().get(`/api/matches/${match.id}`, { 'if-none-match': first.headers.get('etag')! });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(again.headers.get('cache-control')).toBe(PUBLIC_MATCH_CACHE_CONTROL);
    });

    it('keeps a refusal private: a missing match or a bad status is not shared', async () => {
      const missing = await visitor().get('/api/matches/987654322');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBe(PRIVATE_CACHE_CONTROL);
      const invalid = await visitor().get('/api/matches?status=finished');
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('cache-control')).toBe(PRIVATE_CACHE_CONTROL);
    });
  });
});

describe('the operator sets the price', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  it('answers both prices with every match, player and admin, list and detail, 3.00 by default', async () => {
    const match = await createMatch(api.admin, { live: true });
    const anonymous = new Client(api.server.url);
    const answers = [
      (await anonymous.get(`/api/matches/${match.id}`)).body,
      (await anonymous.get('/api/matches?status=live')).body.find((m: { id: number }) => m.id === match.id),
      (await api.admin.client.get(`/api/admin/matches/${match.id}`)).body,
      (await api.admin.client.get('/api/admin/matches')).body.find((m: { id: number }) => m.id === match.id),
    ];
    for (const answer of answers)
      expect(answer).toMatchObject({ id: match.id, team1_odds: 3, team2_odds: 3, batting_first_team_id: null });
  });
});
