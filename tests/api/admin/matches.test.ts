/**
 * Match administration, /api/admin/matches (edge-functions/api/routes/admin/matches.ts), over HTTP: creating
 * matches, starting them, live updates (the score's format, the over kept when left out, the team batting first),
 * the price (validated, announced live, audited), suspending and resuming betting, the risk view with its
 * over-round, declaring a winner or abandoning: settlement at each bet's own odds, refunds, and a referral bonus
 * earned only by the house's result on the referred player, never within a ring of linked accounts; and a bad
 * proposal of a corrected result refused (/correct-result; the correction's journey and its approval are
 * corrections.test.ts's). The rules' boundaries are pgTAP's (supabase/tests/30b-matches, 30c-price-and-decided,
 * 35a-settlement-bulk, 36a-corrections, 60a-house-risk, 60b-fair-book, 10b-one-person). Settings are global and other files run alongside: this file changes only the
 * liability limit, upwards, and puts it back, and never changes default_odds.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import {
  apiSuite,
  balance,
  createMatch,
  depositReference,
  fund,
  price,
  registerPlayer,
  settled,
  sendWebhook,
  unique,
  Client,
  type Player,
} from '../../support/api.ts';
import { subscribe } from '../../support/sse.ts';

describe('match administration', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('journey: register → deposit → webhook → bet → admin declares → balance 10000 − 1000 + 3000', async () => {
    const player = await registerPlayer(api.server);
    const reference = depositReference();
    const deposit = await player.client.post('/api/wallet/deposit', {
      amount: 10000,
      paymentMethod: 'upi',
      reference,
      status: 'pending',
    });
    expect(deposit.status).toBe(201);
    expect(
      (await sendWebhook(api.server, { reference, amount: 10000, status: 'success', gateway_txn_id: unique('gw') }))
        .status,
    ).toBe(200);
    expect((await player.client.get('/api/user')).body.wallet_balance).toBe(10000);

    const match = await createMatch(api.admin, { live: true, team1: 1, team2: 2 });
    const bet = await player.client.post('/api/bets', {
      match_id: match.id,
      team_id: 1,
      amount: 1000,
      odds: 3,
      potential_win: 3000,
    });
    expect(bet.status).toBe(201);
    expect(bet.body).toMatchObject({
      amount: 1000,
      odds: 3,
      potential_win: 3000,
      status: 'placed',
      team: { short_name: 'MI' },
    });
    expect(bet.body.match).toMatchObject({
      id: match.id,
      status: 'live',
      team1: { short_name: 'MI' },
      team2: { short_name: 'CSK' },
    });
    expect(await balance(api.db, player.id)).toBe(9000);

    const declared = await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, {
      winning_team_id: 1,
      result: 'ignored',
    });
    expect(declared.status).toBe(200);
    expect(declared.body).toMatchObject({
      status: 'completed',
      winning_team_id: 1,
      match_result: 'Mumbai Indians won the match',
      settlement: { state: 'settling', settled: 0, total: 1 },
    });
    await settled(api.db, match.id);
    expect(await balance(api.db, player.id)).toBe(10000 - 1000 + 3000);
    expect((await player.client.get(`/api/matches/${match.id}`)).body.settlement).toEqual({
      state: 'settled',
      settled: 1,
      total: 1,
    });
    expect((await player.client.get('/api/user')).body.wallet_balance).toBe(12000);
    const bets = await player.client.get('/api/bets');
    expect(bets.body[0]).toMatchObject({ id: bet.body.id, status: 'won' });

    const again = await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Match is already completed' });
    expect(await balance(api.db, player.id)).toBe(12000);
  });

  it('abandon refunds the stakes; update-live changes scores; match lists filter by status', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const match = await createMatch(api.admin, { live: true, team1: 3, team2: 4 });
    await player.client.post('/api/bets', { match_id: match.id, team_id: 4, amount: 2000 });
    const live = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
      team1_score: '145/3',
      team2_score: '0/0',
      current_innings: 1,
      current_over: 15.3,
    });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ team1_score: '145/3', current_innings: 1, current_over: 15.3 });
    const bad = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, { current_innings: 3 });
    expect([bad.status, bad.body]).toEqual([400, { message: 'Innings must be 1 or 2' }]);

    const liveList = await player.client.get('/api/matches?status=live');
    expect(liveList.body.some((m: { id: number }) => m.id === match.id)).toBe(true);
    expect(liveList.body.every((m: { status: string }) => m.status === 'live')).toBe(true);
    expect((await player.client.get('/api/matches?status=bogus')).status).toBe(400);

    const abandoned = await api.admin.client.patch(`/api/admin/matches/${match.id}/abandon`);
    expect(abandoned.body).toMatchObject({
      status: 'completed',
      match_result: 'Match abandoned',
      additionalDetails: { status: 'Match abandoned' },
    });
    await settled(api.db, match.id);
    expect(await balance(api.db, player.id)).toBe(2000);
    const bets = await api.admin.client.get(`/api/admin/bets/match/${match.id}`);
    expect(bets.body).toHaveLength(1);
    expect(bets.body[0].status).toBe('cancelled');
  });

  it('creates matches, refuses invalid ones with their messages, and reads them back', async () => {
    const start = new Date(Date.now() + 86_400_000).toISOString();
    const created = await api.admin.client.post('/api/admin/matches', {
      team1_id: 5,
      team2_id: 6,
      start_time: start,
      match_type: 'odi',
      status: 'live',
      venue: 'Eden Gardens',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'upcoming',
      match_type: 'odi',
      venue: 'Eden Gardens',
      team1: { name: 'Delhi Capitals' },
      team2: { short_name: 'PBKS' },
    });
    expect((await api.admin.client.get(`/api/admin/matches/${created.body.id}`)).body.id).toBe(created.body.id);
    expect((await api.admin.client.get(`/api/matches/${created.body.id}`)).body.id).toBe(created.body.id);
    expect((await api.admin.client.get('/api/matches/99999999')).body).toEqual({ message: 'Match not found' });
    const cases: [unknown, string][] = [
      [{ team2_id: 6, start_time: start }, 'Team 1 is required'],
      [{ team1_id: 5, start_time: start }, 'Team 2 is required'],
      [{ team1_id: 5, team2_id: 6 }, 'A match date is required.'],
      [
        { team1_id: 5, team2_id: 5, start_time: start },
        'Invalid teams selection: Team 1 and Team 2 cannot be the same team.',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await api.admin.client.post('/api/admin/matches', body);
      expect([answer.status, answer.body]).toEqual([400, { message }]);
    }
    const started = await api.admin.client.patch(`/api/admin/matches/${created.body.id}/start`);
    expect(started.body).toMatchObject({ status: 'live', current_innings: 1, current_over: 0 });
    expect((await api.admin.client.patch(`/api/admin/matches/${created.body.id}/start`)).status).toBe(409);
    const noTeam = await api.admin.client.patch(`/api/admin/matches/${created.body.id}/declare-winner`, {});
    expect([noTeam.status, noTeam.body]).toEqual([400, { message: 'Please select a winning team' }]);
  });
});

describe('the operator sets the price', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let player: Player;
  let other: Player;
  beforeAll(async () => {
    [player, other] = await Promise.all([registerPlayer(api.server), registerPlayer(api.server)]);
    await Promise.all([fund(api.server, player, 50_000), fund(api.server, other, 50_000)]);
  });

  it('sets either price or both, announces them live and audits each change', async () => {
    const match = await createMatch(api.admin, { live: true });
    const events = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    try {
      const both = await price(api.admin, match.id, { team1_odds: 1.85, team2_odds: 1.95 });
      expect(both.status).toBe(200);
      expect(both.body).toMatchObject({ id: match.id, team1_odds: 1.85, team2_odds: 1.95 });
      expect(await events.nextWhere((event) => event.team1_odds === 1.85)).toMatchObject({
        id: match.id,
        team1_odds: 1.85,
        team2_odds: 1.95,
      });
      const one = await price(api.admin, match.id, { team2_odds: 2.1, team1_odds: null });
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
      const refused = await price(api.admin, match.id, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message });
    }
    expect((await api.admin.client.get(`/api/admin/matches/${match.id}`)).body).toMatchObject({
      team1_odds: 3,
      team2_odds: 3,
      version: 1,
    });
    expect((await price(api.admin, 99_999_999, { team1_odds: 2 })).status).toBe(404);

    await api.admin.client.patch(`/api/admin/matches/${match.id}/abandon`);
    const closed = await price(api.admin, match.id, { team1_odds: 2 });
    expect(closed.status).toBe(409);
    expect(closed.body).toEqual({ message: 'This match is closed' });
  });

  it('settles each bet at its own odds, and the risk view counts them so with the over-round', async () => {
    const match = await createMatch(api.admin, { live: true, team1: 3, team2: 4 });
    await price(api.admin, match.id, { team1_odds: 2.5, team2_odds: 1.6 });
    const [playerBefore, otherBefore] = [await balance(api.db, player.id), await balance(api.db, other.id)];
    expect(
      (await player.client.post('/api/bets', { match_id: match.id, team_id: 3, amount: 2000, odds: 2.5 })).status,
    ).toBe(201);
    await price(api.admin, match.id, { team1_odds: 1.2 });
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

  it('suspends and resumes betting: bets are refused meanwhile, and the match says so, live', async () => {
    const match = await createMatch(api.admin, { live: true });
    const events = await subscribe(`${api.server.url}/api/live/matches?id=${match.id}`);
    try {
      const suspended = await api.admin.client.patch(`/api/admin/matches/${match.id}/suspend`);
      expect(suspended.status).toBe(200);
      expect(suspended.body).toMatchObject({ id: match.id, status: 'live', betting: 'suspended' });
      // (the match's start, committed just before the subscription, may still be on its way: skip it)
      expect(await events.nextWhere((event) => event.betting === 'suspended')).toMatchObject({
        id: match.id,
        betting: 'suspended',
      });
      expect((await new Client(api.server.url).get(`/api/matches/${match.id}`)).body.betting).toBe('suspended');

      const before = await balance(api.db, player.id);
      const refused = await bet(match.id);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ message: 'Betting is suspended for this match' });
      expect(await balance(api.db, player.id)).toBe(before);

      const resumed = await api.admin.client.patch(`/api/admin/matches/${match.id}/resume`);
      expect(resumed.body).toMatchObject({ id: match.id, betting: 'open' });
      expect(await events.next()).toMatchObject({ id: match.id, betting: 'open' });
      expect((await bet(match.id)).status).toBe(201);
    } finally {
      events.close();
    }
    const audit = await api.admin.client.get('/api/admin/audit-log?limit=1000');
    expect(
      audit.body
        .filter((entry: { target_id: number }) => entry.target_id === match.id)
        .map((entry: { action: string }) => entry.action),
    ).toEqual(expect.arrayContaining(['match.suspend_betting', 'match.resume_betting']));
  });

  it('refuses to suspend a completed match, and an unknown one', async () => {
    const match = await createMatch(api.admin, { live: true });
    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
    const completed = await api.admin.client.patch(`/api/admin/matches/${match.id}/suspend`);
    expect(completed.status).toBe(409);
    expect(completed.body).toEqual({ message: 'Match is already completed' });
    const unknown = await api.admin.client.patch('/api/admin/matches/99999999/resume');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Match not found' });
  });

  it("shows the book of a match and the house's net should each side win", async () => {
    const match = await createMatch(api.admin, { live: true });
    expect((await bet(match.id, 2000, 1)).status).toBe(201);
    const other = await registerPlayer(api.server);
    await fund(api.server, other, 1_000);
    expect((await other.client.post('/api/bets', { match_id: match.id, team_id: 2, amount: 1000 })).status).toBe(201);
    const risk = await api.admin.client.get(`/api/admin/matches/${match.id}/risk`);
    expect(risk.status).toBe(200);
    expect(risk.body).toEqual({
      team1: { bets: 1, staked: 2000, payout_if_wins: 6000 },
      team2: { bets: 1, staked: 1000, payout_if_wins: 3000 },
      net_if_team1_wins: -3000,
      net_if_team2_wins: 0,
      betting: 'open',
      team1_odds: 3,
      team2_odds: 3,
      overround_percent: 66.7,
    });
    expect((await api.admin.client.get('/api/admin/matches/99999999/risk')).status).toBe(404);
  });
});

describe('the book cannot be beaten', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  const bet = (player: Player, match_id: number, team_id: number, amount: number) =>
    player.client.post('/api/bets', { match_id, team_id, amount });

  it('a live update that leaves out the over keeps it; correcting the over back does not reopen a closed market', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5_000);
    const match = await createMatch(api.admin, { live: true });
    const update = (body: Record<string, unknown>) =>
      api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, body);
    expect((await update({ current_innings: 2, current_over: 14.3 })).body.current_over).toBe(14.3);
    const scoreOnly = await update({ team1_score: '180/4' });
    expect(scoreOnly.status).toBe(200);
    expect(scoreOnly.body).toMatchObject({
      team1_score: '180/4',
      current_innings: 2,
      current_over: 14.3,
      betting: 'open',
    });
    expect((await update({ team2_score: '101/2', current_over: null })).body.current_over).toBe(14.3);

    expect((await update({ current_over: 15 })).body.betting).toBe('closed');
    const corrected = await update({ current_over: 14.4 });
    expect(corrected.body).toMatchObject({ current_over: 14.4, betting: 'closed' });
    const refused = await bet(player, match.id, 1, 1000);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'Betting is closed for this match' });

    const resumed = await api.admin.client.patch(`/api/admin/matches/${match.id}/resume`);
    expect(resumed.body.betting).toBe('open');
    expect((await bet(player, match.id, 1, 1000)).status).toBe(201);
    const audit = await api.admin.client.get('/api/admin/audit-log?limit=1000');
    expect(
      audit.body.filter(
        (row: { action: string; target_id: number }) =>
          row.action === 'match.resume_betting' && row.target_id === match.id,
      ),
    ).toHaveLength(1);
  });

  it('pays a referrer only once the referred player has staked their first deposit on settled bets', async () => {
    const referrer = await registerPlayer(api.server);
    const [{ referral_code: code }] = await api.db`select referral_code from public.users where id = ${referrer.id}`;
    const referred = await registerPlayer(api.server, { referral_code: code });
    await fund(api.server, referred, 2_000);
    expect(await balance(api.db, referrer.id), 'a deposit alone pays nothing').toBe(0);

    const match = await createMatch(api.admin, { live: true });
    expect((await bet(referred, match.id, 1, 2000)).status).toBe(201);
    expect(await balance(api.db, referrer.id), 'nor a bet that is not settled').toBe(0);
    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 2 });
    await settled(api.db, match.id);
    expect(await balance(api.db, referrer.id)).toBe(100);
    const ledger = await referrer.client.get('/api/wallet/transactions');
    expect(ledger.body.map((row: { type: string; reference_id: string }) => [row.type, row.reference_id])).toEqual([
      ['referral_bonus', `REFERRAL-${referred.id}`],
    ]);
  });
});

describe('a correction of the result proposed', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  const REASON = 'Wrong team tapped in the confirmation dialog';

  const propose = (match: number, body: Record<string, unknown>) =>
    api.admin.client.post(`/api/admin/matches/${match}/correct-result`, body);

  it('refuses a bad proposal with a clear message and changes nothing', async () => {
    const { id: match } = await createMatch(api.admin, { live: true });
    expect(
      (await api.admin.client.patch(`/api/admin/matches/${match}/declare-winner`, { winning_team_id: 1 })).status,
    ).toBe(200);
    await settled(api.db, match);
    const live = await createMatch(api.admin, { live: true });
    const cases: [number, Record<string, unknown>, number, string][] = [
      [match, { winning_team_id: 2, reason: 'too short' }, 400, 'Please give a reason of at least 10 characters'],
      [match, { winning_team_id: 2, reason: 'x'.repeat(201) }, 400, 'The reason must be at most 200 characters'],
      [match, { winning_team_id: 2 }, 400, 'Please give a reason of at least 10 characters'],
      [match, { reason: REASON }, 400, 'Please select a winning team or abandon the match'],
      [
        match,
        { winning_team_id: 2, abandon: true, reason: REASON },
        400,
        'Give either a winning team or abandon, not both',
      ],
      [match, { winning_team_id: 3, reason: REASON }, 400, 'Winning team must be one of the two teams'],
      [match, { winning_team_id: 1, reason: REASON }, 409, 'This is the result of the match already'],
      [live.id, { winning_team_id: 1, reason: REASON }, 409, 'Only a completed or abandoned match can be corrected'],
      [99999999, { winning_team_id: 1, reason: REASON }, 404, 'Match not found'],
    ];
    for (const [id, body, status, message] of cases) {
      const answer = await propose(id, body);
      expect([answer.status, answer.body], JSON.stringify(body)).toEqual([status, { message }]);
    }
    await api.db`update app.settlement_runs set created_at = now() - interval '8 days' where match_id = ${match}`;
    const late = await propose(match, { winning_team_id: 2, reason: REASON });
    expect([late.status, late.body]).toEqual([
      409,
      { message: 'A result can be corrected within 7 days of its declaration only' },
    ]);
    expect((await api.admin.client.get(`/api/admin/matches/${match}/corrections`)).body).toEqual([]);
  });
});

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('refuses match dates outside the years 2000–2100 with 400', async () => {
    // other files create matches meanwhile: count only those a refused date would have made
    const outOfRange = async () =>
      (
        await api.db`
      select count(*)::int as n from public.matches where start_time < '2000-01-01' or start_time >= '2101-01-01'`
      )[0].n;
    const before = await outOfRange();
    for (const start_time of [
      '0000-01-01T00:00:00Z',
      '1999-12-31T23:59:59Z',
      '2101-01-01T00:00:00Z',
      '9999-12-31T00:00:00+05:30',
    ]) {
      const answer = await api.admin.client.post('/api/admin/matches', { team1_id: 1, team2_id: 2, start_time });
      expect(answer.status, start_time).toBe(400);
      expect(answer.body).toEqual({ message: 'Match date must be between the years 2000 and 2100' });
    }
    expect(await outOfRange()).toBe(before);
  });
});

describe('one person, one account', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  const bet = (player: Player, matchId: number, teamId = 1) =>
    player.client.post('/api/bets', { match_id: matchId, team_id: teamId, amount: 1000 });

  it('a referral ring earns nothing: two accounts a referrer opens and hedges on one match pay no bonus', async () => {
    const referrer = await registerPlayer(api.server);
    const [{ referral_code: code }] = await api.db`select referral_code from public.users where id = ${referrer.id}`;
    // the referrer opens both referred accounts on their own phone, with no phone number
    const [backsOne, backsTwo] = [
      await registerPlayer(api.server, { referral_code: code }, { sameBrowserAs: referrer }),
      await registerPlayer(api.server, { referral_code: code }, { sameBrowserAs: referrer }),
    ];
    await fund(api.server, backsOne, 1000);
    await fund(api.server, backsTwo, 1000);
    const match = await createMatch(api.admin, { live: true });
    expect((await bet(backsOne, match.id, 1)).status).toBe(201);
    expect((await bet(backsTwo, match.id, 2)).status).toBe(201);
    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
    await settled(api.db, match.id);

    expect(await balance(api.db, referrer.id), 'no referral bonus for either account').toBe(0);
    expect(
      await api.db`select count(*)::int as n from public.transactions where user_id = ${referrer.id} and type = 'referral_bonus'`,
    ).toEqual([{ n: 0 }]);
    expect(
      await api.db`select linked_at is not null as linked from app.referrals where referrer_id = ${referrer.id} order by user_id`,
    ).toEqual([{ linked: true }, { linked: true }]);

    // a friend on a phone of their own whose losses reach the bonus earns the referrer a bonus, once
    const friend = await registerPlayer(api.server, { referral_code: code });
    await fund(api.server, friend, 1000);
    const next = await createMatch(api.admin, { live: true });
    expect((await bet(friend, next.id, 1)).status).toBe(201);
    await api.admin.client.patch(`/api/admin/matches/${next.id}/declare-winner`, { winning_team_id: 2 });
    await settled(api.db, next.id);
    expect(await balance(api.db, referrer.id)).toBe(100);
  });
});
