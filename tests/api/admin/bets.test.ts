/**
 * An admin's view of a match's bets, /api/admin/bets/match/{id}, in keyset pages with the match's count, beside a
 * player's own /api/bets.
 */
import { describe, expect, it } from 'vitest';
import { nextPageUrl } from '@/domain/paging.ts';
import { apiSuite, createMatch, fund, registerPlayer, walk } from '../../support/api.ts';

describe('lists: keyset pages, search, filters and counts', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it("pages the bets of a player and of a match, and counts the match's bets with the first page", async () => {
    const match = await createMatch(api.admin, { live: true });
    const players = await Promise.all([
      registerPlayer(api.server),
      registerPlayer(api.server),
      registerPlayer(api.server),
    ]);
    await Promise.all(players.map((player) => fund(api.server, player, 5000)));
    const placed: number[] = [];
    for (const player of players) {
      for (let n = 0; n < 2; n++) {
        const bet = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });
        expect(bet.status).toBe(201);
        placed.push(bet.body.id);
      }
    }
    const mine = await walk(players[0].client, '/api/bets?limit=1');
    expect(mine.flat()).toEqual(placed.slice(0, 2).reverse());
    const first = await api.admin.client.get(`/api/admin/bets/match/${match.id}?limit=4`);
    expect(first.headers.get('x-total-count')).toBe('6');
    expect(first.headers.get('x-total-stake')).toBe('6000');
    expect(first.body[0]).toMatchObject({ match_id: match.id, team: { short_name: 'MI' } });
    const second = await api.admin.client.get(nextPageUrl(first.headers.get('link'))!);
    expect(second.headers.get('x-total-count')).toBeNull();
    expect([...first.body, ...second.body].map((bet: { id: number }) => bet.id)).toEqual([...placed].reverse());
    expect((await api.admin.client.get('/api/admin/bets/match/999999')).status).toBe(404);
  });
});
