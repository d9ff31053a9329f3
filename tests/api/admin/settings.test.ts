/**
 * The house's settings, /api/admin/settings: validated, audited and answered as they now are (default_odds
 * included); a loosening of the controls on an admin's own credits waits for another admin, a tightening applies at
 * once (pgTAP: supabase/tests/40c-four-eyes, 60a-house-risk). Settings are global and other files run alongside:
 * every test here puts each setting back as it found it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, balance, fund, registerPlayer, type Player, createAdmin } from '../../support/api.ts';

const SECOND_ADMIN = 'A second administrator must approve this change';

describe('the operator sets the price', () => {
  const api = apiSuite({ admin: true, reconciled: true });
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

describe('house risk', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let player: Player;
  beforeAll(async () => {
    player = await registerPlayer(api.server);
    await fund(api.server, player, 100_000);
    await fund(api.server, player, 5_000);
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

describe('no insider alone', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let secondAdmin: Player;
  beforeAll(async () => {
    secondAdmin = await createAdmin(api.server, api.db);
  });

  it('an admin who raises the controls on their own credits gets a change for a second admin, applied only by one', async () => {
    const before = (await api.admin.client.get('/api/admin/settings')).body;
    const raise = await api.admin.client.put('/api/admin/settings', {
      adjustment_review_amount: 100_000,
      admin_credit_per_day: 100_000_000,
    });
    expect(raise.status).toBe(202);
    expect(raise.body).toMatchObject({
      message: SECOND_ADMIN,
      change: {
        changes: { adjustment_review_amount: 100_000, admin_credit_per_day: 100_000_000 },
        previous: {
          adjustment_review_amount: before.adjustment_review_amount,
          admin_credit_per_day: before.admin_credit_per_day,
        },
        status: 'pending',
        proposed_by: api.admin.id,
        proposed_by_username: api.admin.username,
      },
    });
    expect((await api.admin.client.get('/api/admin/settings')).body, 'nothing applied').toEqual(before);

    // the insider then credits ₹99,999: it still waits for a second admin, under the threshold in force
    const player = await registerPlayer(api.server);
    const credit = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, { amount: 99_999, notes: 'x' });
    expect(credit.body.status).toBe('pending');
    expect(await balance(api.db, player.id)).toBe(0);

    const { id } = raise.body.change;
    const listed = await secondAdmin.client.get('/api/admin/settings/changes');
    expect(listed.body.map((change: { id: number }) => change.id)).toContain(id);
    const own = await api.admin.client.post(`/api/admin/settings/changes/${id}/approve`);
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ message: SECOND_ADMIN });
    expect((await api.admin.client.get('/api/admin/settings')).body).toEqual(before);

    const rejected = await secondAdmin.client.post(`/api/admin/settings/changes/${id}/reject`);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id, status: 'rejected', decided_by: secondAdmin.id });
    expect((await api.admin.client.get('/api/admin/settings')).body).toEqual(before);
    const again = await secondAdmin.client.post(`/api/admin/settings/changes/${id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'This change has already been decided' });
    expect(
      (await api.admin.client.get('/api/admin/settings/changes')).body.map((c: { id: number }) => c.id),
    ).not.toContain(id);
  });

  it('another admin applies a loosening; tightening applies at once', async () => {
    const before = (await api.admin.client.get('/api/admin/settings')).body;
    const raise = await api.admin.client.put('/api/admin/settings', {
      admin_credit_per_day: before.admin_credit_per_day + 1,
      max_liability_per_match: before.max_liability_per_match,
    });
    expect(raise.status).toBe(202);
    const approved = await secondAdmin.client.post(`/api/admin/settings/changes/${raise.body.change.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decided_by: secondAdmin.id });
    try {
      expect((await api.admin.client.get('/api/admin/settings')).body).toEqual({
        ...before,
        admin_credit_per_day: before.admin_credit_per_day + 1,
      });
    } finally {
      const back = await api.admin.client.put('/api/admin/settings', {
        admin_credit_per_day: before.admin_credit_per_day,
      });
      expect(back.status, 'tightening needs no second admin').toBe(200);
      expect(back.body).toEqual(before);
    }
    const audit = await api.db`
      select action, admin_id from public.audit_log
      where target_type = 'settings_change' and target_id = ${raise.body.change.id} order by id`;
    expect(audit).toEqual([
      { action: 'settings.change_proposed', admin_id: api.admin.id },
      { action: 'settings.change_approved', admin_id: secondAdmin.id },
    ]);
  });
});
