/**
 * Reality checks and the deposit-limit prompt over HTTP: the interval (GET/PUT /api/account/reality-check),
 * the play session with the server's time and the net result of bets since it began
 * (GET /api/account/play-session), and the prompt before the first deposit (POST /api/account/limit-prompt),
 * answered once. The rules and their boundaries are pgTAP-tested (supabase/tests/51a-reality-checks.test.sql).
 */
import { describe, expect, it } from 'vitest';
import { protectionMessages } from '../../src/domain/protection.ts';
import { apiSuite, Client, createMatch, depositReference, fund, registerPlayer, settled } from '../support/api.ts';

describe('reality checks', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('a player reads and chooses the reality-check interval; every change is in their protection history', async () => {
    const player = await registerPlayer(api.server);
    expect(await player.client.get('/api/account/reality-check')).toMatchObject({
      status: 200,
      body: { interval_minutes: 60 },
    });
    expect(await player.client.put('/api/account/reality-check', { interval_minutes: 15 })).toMatchObject({
      status: 200,
      body: { interval_minutes: 15 },
    });
    expect(await player.client.put('/api/account/reality-check', { interval_minutes: null })).toMatchObject({
      status: 200,
      body: { interval_minutes: null },
    });
    expect((await player.client.get('/api/account/reality-check')).body).toEqual({ interval_minutes: null });
    const refused = await player.client.put('/api/account/reality-check', { interval_minutes: 45 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(protectionMessages.realityCheckMinutes);
    const history = await api.db`
      select interval_minutes from public.protection_changes
      where user_id = ${player.id} and kind = 'reality_check' order by id`;
    expect(history.map((row) => row.interval_minutes)).toEqual([15, null]);
  });

  it("the play session answers its start, the server's time and the net result of the bets since", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const before = Date.now();
    const fresh = await player.client.get('/api/account/play-session');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ interval_minutes: 60, staked: 0, won: 0, net: 0 });
    expect(Math.abs(Date.parse(fresh.body.now) - before)).toBeLessThan(5000);
    expect(Date.parse(fresh.body.started_at)).toBeLessThanOrEqual(Date.parse(fresh.body.now));

    const match = await createMatch(api.admin, { live: true });
    expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 2000 })).status).toBe(201);
    expect(
      (await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 })).status,
    ).toBe(200);
    await settled(api.db, match.id);
    const after = await player.client.get('/api/account/play-session');
    expect(after.body).toMatchObject({ started_at: fresh.body.started_at, staked: 2000, won: 6000, net: 4000 });
  });

  it('needs a signed-in player', async () => {
    const visitor = new Client(api.server.url);
    expect((await visitor.get('/api/account/play-session')).status).toBe(401);
    expect((await visitor.get('/api/account/reality-check')).status).toBe(401);
  });
});

describe('the deposit-limit prompt', () => {
  const api = apiSuite({ reconciled: true });

  it('is due before the first deposit; "Set limit" sets the limit and the prompt is answered once', async () => {
    const player = await registerPlayer(api.server);
    expect((await player.client.get('/api/account/limits')).body.limit_prompt_due).toBe(true);
    const answered = await player.client.post('/api/account/limit-prompt', {
      answer: 'set_limit',
      period: 'daily',
      amount: 2000,
    });
    expect(answered.status).toBe(201);
    expect(answered.body).toMatchObject({
      deposit_limits: { daily: 2000, weekly: null, monthly: null },
      limit_prompt_due: false,
    });
    const again = await player.client.post('/api/account/limit-prompt', { answer: 'not_now' });
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'You have already answered the deposit limit question' },
    });
    const over = await player.client.post('/api/wallet/deposit', {
      amount: 2500,
      paymentMethod: 'upi',
      reference: depositReference(),
    });
    expect(over.body).toEqual({ message: 'Deposit limit reached: Your daily limit is ₹2,000 and ₹2,000 is left.' });
  });

  it('"Not now" is recorded too, and a player who has deposited is not asked', async () => {
    const player = await registerPlayer(api.server);
    const answered = await player.client.post('/api/account/limit-prompt', { answer: 'not_now' });
    expect(answered).toMatchObject({ status: 201, body: { limit_prompt_due: false, deposit_limits: { daily: null } } });
    const [row] = await api.db`select kind, period, amount from public.protection_changes where user_id = ${player.id}`;
    expect(row).toEqual({ kind: 'limit_prompt', period: null, amount: null });

    const depositor = await registerPlayer(api.server);
    await fund(api.server, depositor, 1000);
    expect((await depositor.client.get('/api/account/limits')).body.limit_prompt_due).toBe(false);
  });

  it('refuses a limit without an amount', async () => {
    const player = await registerPlayer(api.server);
    const refused = await player.client.post('/api/account/limit-prompt', { answer: 'set_limit', period: 'daily' });
    expect(refused.status).toBe(400);
  });
});
