/**
 * Bets, /api/bets (edge-functions/api/routes/bets.ts), over HTTP: what a bet is refused for (tampered or hostile
 * odds, minimum, balance, a closed, suspended, decided or quiet match, a stake above the limit, backing both teams,
 * a price that is no longer the match's), one bet per Idempotency-Key, and a player's own bets. The rules'
 * boundaries are pgTAP's (supabase/tests/30a-bets, 30c-price-and-decided, 60a-house-risk, 60b-fair-book).
 * Settings are global and other files run alongside: this file leaves every setting as it found it and never
 * changes default_odds (a match created meanwhile elsewhere would take it).
 */
import { describe, expect, it, beforeAll } from 'vitest';
import {
  apiSuite,
  balance,
  createMatch,
  fund,
  price,
  registerPlayer,
  settled,
  unique,
  type Player,
} from '../support/api.ts';
import { subscribe } from '../support/sse.ts';

describe('bets', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it("lists only the caller's own bets and transactions, also for an admin", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const match = await createMatch(api.admin);
    expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 })).status).toBe(201);
    expect((await player.client.get('/api/bets')).body).toHaveLength(1);
    // the admin has neither bets nor transactions: RLS lets them read everyone's, the API must not list them
    expect((await api.admin.client.get('/api/bets')).body).toEqual([]);
    expect((await api.admin.client.get('/api/wallet/transactions')).body).toEqual([]);
  });

  it('refuses tampered odds or potential win (409) and never stores client values', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const match = await createMatch(api.admin);
    for (const tamper of [{ odds: 10 }, { potential_win: 999999 }]) {
      const answer = await player.client.post('/api/bets', { match_id: match.id, team_id: 2, amount: 1000, ...tamper });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ message: 'Odds have changed' });
    }
    const ok = await player.client.post('/api/bets', { match_id: match.id, team_id: 2, amount: 2000 });
    expect(ok.status).toBe(201);
    const [row] = await api.db`select odds::text, potential_win from public.bets where id = ${ok.body.id}`;
    expect(row).toEqual({ odds: '3.00', potential_win: 6000 });
    expect(await balance(api.db, player.id)).toBe(3000);
  });

  it('refuses bets: minimum, insufficient balance, wrong team, closed match, suspended player', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 1500);
    const match = await createMatch(api.admin);
    const cases: [unknown, number, string][] = [
      [
        { match_id: match.id, team_id: 1, amount: 999 },
        400,
        'Invalid amount: Please enter an amount of at least ₹1000.',
      ],
      [
        { match_id: match.id, team_id: 1, amount: 2000 },
        409,
        "Insufficient balance: You don't have enough funds in your wallet. Please recharge your wallet.",
      ],
      [{ match_id: match.id, team_id: 5, amount: 1000 }, 400, 'Selected team is not playing in this match'],
      [{ match_id: 99999999, team_id: 1, amount: 1000 }, 404, 'Match not found'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await player.client.post('/api/bets', body);
      expect([answer.status, answer.body]).toEqual([status, { message }]);
    }
    const done = await createMatch(api.admin, { live: true });
    await api.admin.client.patch(`/api/admin/matches/${done.id}/abandon`);
    const closed = await player.client.post('/api/bets', { match_id: done.id, team_id: 1, amount: 1000 });
    expect(closed.status).toBe(409);
    await api.admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'suspended' });
    // suspending ended the player's sessions; a suspended player may sign in and look, not bet
    expect(
      (await player.client.post('/api/login', { username: player.username, password: player.password })).status,
    ).toBe(200);
    const suspended = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });
    expect(suspended.status).toBe(403);
    expect(await balance(api.db, player.id)).toBe(1500);
  });

  it('places one bet for one Idempotency-Key; the same key with another body is a 409', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const match = await createMatch(api.admin);
    const key = unique('bet');
    const body = { match_id: match.id, team_id: 1, amount: 1000 };
    const answers = await Promise.all(
      [1, 2, 3].map(() => player.client.post('/api/bets', body, { 'idempotency-key': key })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    const other = await player.client.post('/api/bets', { ...body, amount: 2000 }, { 'idempotency-key': key });
    expect(other.status).toBe(409);
    expect(await balance(api.db, player.id)).toBe(4000);
    const [{ count }] = await api.db`select count(*)::int as count from public.bets where user_id = ${player.id}`;
    expect(count).toBe(1);
  });
});

describe('the operator sets the price', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let player: Player;
  beforeAll(async () => {
    player = await registerPlayer(api.server);
    await fund(api.server, player, 50_000);
  });

  it("takes a bet at the price of its moment and refuses one sent at a price that is no longer the match's", async () => {
    const match = await createMatch(api.admin, { live: true });
    await price(api.admin, match.id, { team1_odds: 1.85 });
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
    await price(api.admin, match.id, { team1_odds: 2.4 });
    const mine = await player.client.get('/api/bets?limit=2');
    expect(mine.body.map((bet: { odds: number; potential_win: number }) => [bet.odds, bet.potential_win])).toEqual([
      [1.85, 3700],
      [1.85, 1852],
    ]);
    expect(await balance(api.db, player.id)).toBe(before - 3001);
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
});

describe('house risk', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let player: Player;
  beforeAll(async () => {
    player = await registerPlayer(api.server);
    await fund(api.server, player, 100_000);
    await fund(api.server, player, 5_000);
  });

  const bet = (matchId: number, amount = 1000, team_id = 1) =>
    player.client.post('/api/bets', { match_id: matchId, team_id, amount });

  it('closes betting when a live update reaches the close over of the second innings', async () => {
    const match = await createMatch(api.admin, { live: true });
    const before = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
      current_innings: 2,
      current_over: 14.5,
    });
    expect(before.body.betting).toBe('open');
    const reached = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
      current_innings: 2,
      current_over: 15,
    });
    expect(reached.body.betting).toBe('closed');
    const refused = await bet(match.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'Betting is closed for this match' });
  });

  it('refuses a stake above the limit per bet with a clear 409', async () => {
    const match = await createMatch(api.admin);
    const before = await balance(api.db, player.id);
    const refused = await bet(match.id, 100_001);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'Maximum stake per bet is ₹100,000' });
    expect(await balance(api.db, player.id)).toBe(before);
  });
});

describe('the book cannot be beaten', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  const bet = (player: Player, match_id: number, team_id: number, amount: number) =>
    player.client.post('/api/bets', { match_id, team_id, amount });

  it('a player who backs both teams of a match gets the second bet refused: no certain profit', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 20_000);
    const match = await createMatch(api.admin, { live: true });
    expect((await bet(player, match.id, 1, 5000)).status).toBe(201);
    const hedge = await bet(player, match.id, 2, 5000);
    expect(hedge.status).toBe(409);
    expect(hedge.body).toEqual({ message: 'You have already backed Mumbai Indians in this match' });
    expect(await balance(api.db, player.id)).toBe(15_000);
    expect((await player.client.get(`/api/matches/${match.id}/position`)).body).toEqual({ team_id: 1, staked: 5000 });

    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 2 });
    await settled(api.db, match.id);
    expect(await balance(api.db, player.id), 'the side backed lost: the stake is gone').toBe(15_000);
  });

  it('pauses bets on a match whose live score has gone quiet, until the next live update', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5_000);
    const match = await createMatch(api.admin, { live: true });
    // the score was last updated 181 seconds ago (the default pause is 180)
    await api.db`update public.matches set live_updated_at = now() - interval '181 seconds' where id = ${match.id}`;
    const read = await player.client.get(`/api/matches/${match.id}`, { 'cache-control': 'no-cache' });
    expect(Date.parse(read.body.betting_pauses_at)).toBeLessThan(Date.now());
    const refused = await bet(player, match.id, 1, 1000);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'Betting is paused until the live score is updated' });
    expect(await balance(api.db, player.id)).toBe(5_000);

    const updated = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, { team1_score: '12/0' });
    expect(Date.parse(updated.body.betting_pauses_at)).toBeGreaterThan(Date.now());
    expect((await bet(player, match.id, 1, 1000)).status).toBe(201);
  });
});

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('answers hostile odds / potential_win with 400 and a wrong but valid number with 409; nothing moves', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const match = await createMatch(api.admin, { live: true });
    const bet = (extra: Record<string, unknown>) =>
      player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000, ...extra });
    for (const extra of [
      { potential_win: 3000.5 },
      { potential_win: 1e300 },
      { potential_win: -3000 },
      { potential_win: 'lots' },
      { odds: 1e300 },
      { odds: 101 },
      { odds: 0 },
      { odds: 'Infinity' },
    ]) {
      const answer = await bet(extra);
      expect(answer.status, JSON.stringify(extra)).toBe(400);
      expect(answer.body.message).toMatch(/^Invalid (odds|potential win)$/);
    }
    for (const extra of [
      { odds: 2.5 },
      { odds: 3.001 },
      { potential_win: 2999 },
      { potential_win: 9_000_000_000_000 },
    ]) {
      const answer = await bet(extra);
      expect(answer.status, JSON.stringify(extra)).toBe(409);
      expect(answer.body).toEqual({ message: 'Odds have changed' });
    }
    expect(await balance(api.db, player.id)).toBe(5000);
    expect((await api.db`select count(*)::int as n from public.bets where user_id = ${player.id}`)[0].n).toBe(0);
  });
});
