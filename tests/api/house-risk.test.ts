/**
 * House risk over HTTP: suspend/resume (the bet's 409, the public match answer and its live event), the
 * close point reached by a live update, the stake limit's 409, the risk view, and the settings (validated,
 * audited). Who may call each route is in authorization.test.ts; the rules' boundaries are pgTAP's
 * (supabase/tests/60a-house-risk.test.sql). The settings are global and other test files run alongside, so
 * this file changes only the liability limit, upwards, and puts it back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, balance, Client, createMatch, fund, registerPlayer, type Player } from '../support/api.ts';
import { subscribe } from '../support/sse.ts';

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

  it('reads and changes the settings: validated, audited, answered as they now are', async () => {
    const current = await api.admin.client.get('/api/admin/settings');
    expect(current.status).toBe(200);
    expect(Object.keys(current.body).sort()).toEqual([
      'adjustment_review_amount',
      'admin_credit_per_day',
      'betting_close_over',
      'betting_pre_match_only',
      'default_odds',
      'live_feed_stale_seconds',
      'max_liability_per_match',
      'max_stake_per_bet',
      'max_stake_per_player_match',
      'referral_bonuses_per_month',
    ]);

    const invalid = await api.admin.client.call('PUT', '/api/admin/settings', { max_liability_per_match: -1 });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: 'Liability limit per match must be between ₹0 and ₹1,000,000,000' });
    const unknown = await api.admin.client.call('PUT', '/api/admin/settings', { referral_bonus_amount: 500 });
    expect(unknown.status).toBe(400);
    expect((await api.admin.client.get('/api/admin/settings')).body).toEqual(current.body);

    const raised = current.body.max_liability_per_match + 1000;
    try {
      const changed = await api.admin.client.call('PUT', '/api/admin/settings', { max_liability_per_match: raised });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({ ...current.body, max_liability_per_match: raised });
      const entries: { action: string }[] = (await api.admin.client.get('/api/admin/audit-log?limit=100')).body;
      expect(entries.find((entry) => entry.action === 'settings.update')).toMatchObject({
        admin_id: api.admin.id,
        action: 'settings.update',
        target_type: 'settings',
        before: { max_liability_per_match: current.body.max_liability_per_match },
        after: { max_liability_per_match: raised },
      });
    } finally {
      await api.admin.client.call('PUT', '/api/admin/settings', {
        max_liability_per_match: current.body.max_liability_per_match,
      });
    }
  });
});
