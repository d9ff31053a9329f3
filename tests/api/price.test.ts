/**
 * The operator's price and the decided match over HTTP: both prices in every match answer and live event,
 * PATCH /api/admin/matches/{id}/odds (validated, audited, closed matches refused), a bet at the price of its
 * moment (a stale client price a 409 that moves nothing), settlement at each bet's own odds, the risk view's
 * over-round, the default_odds setting, and update-live's score format, team batting first and the decided
 * match that takes no bets. The rules' boundaries are pgTAP's (supabase/tests/30c-price-and-decided.test.sql).
 * The settings are global and other test files run alongside: this file never changes default_odds (a
 * match created meanwhile elsewhere would take it); pgTAP and the E2E journey do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, balance, Client, createMatch, fund, registerPlayer, settled, type Player } from '../support/api.ts';
import { subscribe } from '../support/sse.ts';

describe('the operator sets the price', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let player: Player;
  let other: Player;
  beforeAll(async () => {
    [player, other] = await Promise.all([registerPlayer(api.server), registerPlayer(api.server)]);
    await Promise.all([fund(api.server, player, 50_000), fund(api.server, other, 50_000)]);
  });

  const price = (matchId: number, odds: Record<string, unknown>) =>
    api.admin.client.patch(`/api/admin/matches/${matchId}/odds`, odds);

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

  it('sets either price or both, announces them live and audits each change', async () => {
    const match = await createMatch(api.admin, { live: true });
    const events = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    try {
      const both = await price(match.id, { team1_odds: 1.85, team2_odds: 1.95 });
      expect(both.status).toBe(200);
      expect(both.body).toMatchObject({ id: match.id, team1_odds: 1.85, team2_odds: 1.95 });
      expect(await events.nextWhere((event) => event.team1_odds === 1.85)).toMatchObject({
        id: match.id,
        team1_odds: 1.85,
        team2_odds: 1.95,
      });
      const one = await price(match.id, { team2_odds: 2.1, team1_odds: null });
      expect(one.body).toMatchObject({ team1_odds: 1.85, team2_odds: 2.1 });
      expect(await events.next()).toMatchObject({ team1_odds: 1.85, team2_odds: 2.1 });
    } finally {
      events.close();
    }
    expect((await new Client(api.server.url).get(`/api/matches/${match.id}`)).body).toMatchObject({
      team1_odds: 1.85,
      team2_odds: 2.1,
    });
    const audit = await api.admin.client.get('/api/admin/audit-log?limit=1000');
    expect(
      audit.body
        .filter(
          (entry: { action: string; target_id: number }) =>
            entry.action === 'match.set_odds' && entry.target_id === match.id,
        )
        .map((entry: { admin_id: number; before: unknown; after: unknown }) => [
          entry.admin_id,
          entry.before,
          entry.after,
        ]),
    ).toEqual([
      [api.admin.id, { team1_odds: 1.85, team2_odds: 1.95 }, { team1_odds: 1.85, team2_odds: 2.1 }],
      [api.admin.id, { team1_odds: 3, team2_odds: 3 }, { team1_odds: 1.85, team2_odds: 1.95 }],
    ]);
  });

  it('refuses prices out of range, with more than two decimals or missing (400), and closed or unknown matches', async () => {
    const match = await createMatch(api.admin);
    for (const [body, message] of [
      [{ team1_odds: 1 }, 'Odds must be between 1.01 and 100.00'],
      [{ team1_odds: 1.85, team2_odds: 100.01 }, 'Odds must be between 1.01 and 100.00'],
      [{ team2_odds: -3 }, 'Odds must be between 1.01 and 100.00'],
      [{ team1_odds: '1.85' }, 'Odds must be between 1.01 and 100.00'],
      [{ team1_odds: 1.855 }, 'Odds must have at most two decimals'],
      [{}, 'Send team1_odds, team2_odds or both'],
    ] as const) {
      const refused = await price(match.id, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message });
    }
    expect((await api.admin.client.get(`/api/admin/matches/${match.id}`)).body).toMatchObject({
      team1_odds: 3,
      team2_odds: 3,
      version: 1,
    });
    expect((await price(99_999_999, { team1_odds: 2 })).status).toBe(404);

    await api.admin.client.patch(`/api/admin/matches/${match.id}/abandon`);
    const closed = await price(match.id, { team1_odds: 2 });
    expect(closed.status).toBe(409);
    expect(closed.body).toEqual({ message: 'This match is closed' });
  });

  it("takes a bet at the price of its moment and refuses one sent at a price that is no longer the match's", async () => {
    const match = await createMatch(api.admin, { live: true });
    await price(match.id, { team1_odds: 1.85 });
    const before = await balance(api.db, player.id);

    for (const stale of [{ odds: 3 }, { odds: 3, potential_win: 3000 }, { potential_win: 3000 }]) {
      const refused = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000, ...stale });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ message: 'Odds have changed' });
    }
    expect(await balance(api.db, player.id)).toBe(before);
    const [{ count }] = await api.db`select count(*)::int from public.bets where match_id = ${match.id}`;
    expect(count).toBe(0);

    const shown = await player.client.post('/api/bets', {
      match_id: match.id,
      team_id: 1,
      amount: 1001,
      odds: 1.85,
      potential_win: 1852,
    });
    expect(shown.status).toBe(201);
    expect(shown.body).toMatchObject({ odds: 1.85, potential_win: 1852, match: { team1_odds: 1.85 } });
    const unpriced = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 2000 });
    expect(unpriced.body).toMatchObject({ odds: 1.85, potential_win: 3700 });
    await price(match.id, { team1_odds: 2.4 });
    const mine = await player.client.get('/api/bets?limit=2');
    expect(mine.body.map((bet: { odds: number; potential_win: number }) => [bet.odds, bet.potential_win])).toEqual([
      [1.85, 3700],
      [1.85, 1852],
    ]);
    expect(await balance(api.db, player.id)).toBe(before - 3001);
  });

  it('settles each bet at its own odds, and the risk view counts them so with the over-round', async () => {
    const match = await createMatch(api.admin, { live: true, team1: 3, team2: 4 });
    await price(match.id, { team1_odds: 2.5, team2_odds: 1.6 });
    const [playerBefore, otherBefore] = [await balance(api.db, player.id), await balance(api.db, other.id)];
    expect(
      (await player.client.post('/api/bets', { match_id: match.id, team_id: 3, amount: 2000, odds: 2.5 })).status,
    ).toBe(201);
    await price(match.id, { team1_odds: 1.2 });
    expect(
      (await other.client.post('/api/bets', { match_id: match.id, team_id: 3, amount: 2000, odds: 1.2 })).status,
    ).toBe(201);

    const risk = await api.admin.client.get(`/api/admin/matches/${match.id}/risk`);
    expect(risk.body).toMatchObject({
      team1: { bets: 2, staked: 4000, payout_if_wins: 7400 },
      net_if_team1_wins: -3400,
      team1_odds: 1.2,
      team2_odds: 1.6,
      overround_percent: 145.8,
    });

    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 3 });
    await settled(api.db, match.id);
    expect(await balance(api.db, player.id)).toBe(playerBefore + 3000);
    expect(await balance(api.db, other.id)).toBe(otherBefore + 400);
  });

  it('answers the over-round of the default prices: 66.7, a certain profit for whoever backs both sides', async () => {
    const match = await createMatch(api.admin, { team1: 5, team2: 6 });
    const risk = await api.admin.client.get(`/api/admin/matches/${match.id}/risk`);
    expect(risk.body).toMatchObject({ team1_odds: 3, team2_odds: 3, overround_percent: 66.7 });
  });

  it('answers default_odds with the settings and refuses a price that is not one', async () => {
    const settings = await api.admin.client.get('/api/admin/settings');
    expect(settings.body.default_odds).toEqual(expect.any(Number));
    for (const default_odds of [1, 100.5, 2.345, '2']) {
      const refused = await api.admin.client.put('/api/admin/settings', { default_odds });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        message: 'Default odds must be between 1.01 and 100.00, with at most two decimals',
      });
    }
  });
});

describe('a decided match takes no bets', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let player: Player;
  beforeAll(async () => {
    player = await registerPlayer(api.server);
    await fund(api.server, player, 20_000);
  });

  const live = (matchId: number, body: Record<string, unknown>) =>
    api.admin.client.patch(`/api/admin/matches/${matchId}/update-live`, body);
  const bet = (matchId: number, team_id: number) =>
    player.client.post('/api/bets', { match_id: matchId, team_id, amount: 1000 });

  it('closes betting once the side batting second passes the first innings, live, and keeps it closed', async () => {
    const match = await createMatch(api.admin, { live: true, team1: 7, team2: 8 });
    const first = await live(match.id, { team1_score: '140/9', current_innings: 1, current_over: 20 });
    expect(first.body).toMatchObject({ batting_first_team_id: 7, betting: 'open' });
    expect((await live(match.id, { team2_score: '138/3', current_innings: 2, current_over: 12.2 })).body.betting).toBe(
      'open',
    );
    expect((await bet(match.id, 8)).status).toBe(201);

    const events = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    try {
      const passed = await live(match.id, { team2_score: '141/3', current_over: 12.3 });
      expect(passed.body).toMatchObject({ team2_score: '141/3', betting: 'closed' });
      expect(await events.nextWhere((event) => event.team2_score === '141/3')).toMatchObject({ betting: 'closed' });
    } finally {
      events.close();
    }
    const before = await balance(api.db, player.id);
    const refused = await bet(match.id, 8);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'Betting is closed for this match' });
    expect(await balance(api.db, player.id)).toBe(before);

    // a mistyped score corrected later never reopens it by itself; Resume does, only while the score allows
    expect((await live(match.id, { team2_score: '139/3' })).body.betting).toBe('closed');
    expect((await live(match.id, { team2_score: '141/3' })).body.betting).toBe('closed');
    expect((await api.admin.client.patch(`/api/admin/matches/${match.id}/resume`)).body.betting).toBe('closed');
  });

  it('closes betting when the side batting second, named by the admin, is all out', async () => {
    const match = await createMatch(api.admin, { live: true, team1: 9, team2: 10 });
    await live(match.id, { team1_score: '12/1', team2_score: '160/8', current_innings: 1, batting_first_team_id: 10 });
    expect((await live(match.id, { team1_score: '120/9', current_innings: 2, current_over: 14 })).body).toMatchObject({
      batting_first_team_id: 10,
      betting: 'open',
    });
    expect((await live(match.id, { team1_score: '120/10' })).body.betting).toBe('closed');
    expect((await bet(match.id, 9)).body).toEqual({ message: 'Betting is closed for this match' });
  });

  it('refuses a score that cannot be read and a team batting first that does not play', async () => {
    const match = await createMatch(api.admin, { live: true });
    for (const body of [{ team1_score: 'abc' }, { team2_score: '150/11' }, { team1_score: '145' }]) {
      const refused = await live(match.id, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: 'Score must look like 145/3' });
    }
    const stranger = await live(match.id, { batting_first_team_id: 5 });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toEqual({ message: 'Batting first must be one of the two teams' });
    const empty = await live(match.id, { team1_score: '45/1', team2_score: '' });
    expect(empty.body).toMatchObject({ team1_score: '45/1', team2_score: null, version: 3 });
  });
});
