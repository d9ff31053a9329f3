/**
 * No insider alone on any money path, over HTTP: each attempt of an admin acting alone, with the answer it
 * gets and what it moved. The rules' boundaries are pgTAP's (supabase/tests/40c-four-eyes.test.sql); races are
 * in tests/db/concurrency.test.ts. Settings are global and other files run alongside: this file leaves every
 * setting as it found it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { apiSuite, balance, createAdmin, depositReference, fund, registerPlayer, type Player } from '../support/api.ts';

const SECOND_ADMIN = 'A second administrator must approve this change';

describe('no insider alone', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let secondAdmin: Player;
  beforeAll(async () => {
    secondAdmin = await createAdmin(api.server, api.db);
  });

  /** A pending deposit no gateway has confirmed (the player never paid). */
  const unpaidDeposit = async (player: Player, amount: number) => {
    const deposit = await player.client.post('/api/wallet/deposit', {
      amount,
      paymentMethod: 'upi',
      reference: depositReference(),
    });
    expect(deposit.status).toBe(201);
    return deposit.body.id as number;
  };
  const approve = (admin: Player, id: number) => admin.client.patch(`/api/admin/transactions/${id}/approve`);

  it("an admin who approves a friend's unpaid deposits alone credits nothing: each waits for a second admin", async () => {
    const insider = await createAdmin(api.server, api.db);
    const friend = await registerPlayer(api.server);
    const deposits = [];
    for (let n = 0; n < 7; n++) deposits.push(await unpaidDeposit(friend, 100_000));
    const answers = [];
    for (const id of deposits) answers.push(await approve(insider, id));
    for (const [n, first] of answers.slice(0, 5).entries()) {
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({
        message: 'A second administrator must approve deposits of ₹50,000 or more',
        transaction: { id: deposits[n], status: 'pending', amount: 100_000 },
      });
    }
    // the first approvals count against the insider's daily cap of ₹5,00,000 too
    expect(answers.slice(5).map((answer) => [answer.status, answer.body])).toEqual([
      [409, { message: 'Daily credit limit reached' }],
      [409, { message: 'Daily credit limit reached' }],
    ]);
    const again = await approve(insider, deposits[0]);
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ message: 'A second administrator must approve this deposit' });
    expect(await balance(api.db, friend.id), 'seven approvals of ₹1,00,000 by one admin').toBe(0);

    const second = await approve(secondAdmin, deposits[0]);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: deposits[0], status: 'completed' });
    expect(await balance(api.db, friend.id)).toBe(100_000);
    for (const id of deposits.slice(1)) {
      expect((await secondAdmin.client.patch(`/api/admin/transactions/${id}/reject`)).status).toBe(200);
    }
    expect(await balance(api.db, friend.id)).toBe(100_000);
  });

  it("every deposit an admin approves counts against that admin's daily credit cap", async () => {
    const approver = await createAdmin(api.server, api.db);
    const friend = await registerPlayer(api.server);
    const { admin_credit_per_day: cap, adjustment_review_amount: review } = (
      await api.admin.client.get('/api/admin/settings')
    ).body;
    const amount = review - 1;
    const fits = Math.floor(cap / amount);
    for (let n = 0; n < fits; n++) {
      const id = await unpaidDeposit(friend, amount);
      expect((await approve(approver, id)).status).toBe(200);
    }
    const over = await unpaidDeposit(friend, amount);
    const refused = await approve(approver, over);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'Daily credit limit reached' });
    expect(await balance(api.db, friend.id)).toBe(fits * amount);
    expect((await approve(secondAdmin, over)).status, 'another admin has a cap of their own').toBe(200);
  });

  it('an admin who releases a withdrawal of ₹50,000 alone gets it held for a second admin', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 60_000);
    const account = await player.client.post('/api/bank-accounts', {
      account_holder: 'Large Withdrawer',
      account_number: `6${Date.now()}${randomInt(1000, 9999)}`,
      ifsc_code: 'SBIN0006012',
      bank_name: 'State Bank',
    });
    expect(account.status).toBe(201);
    const withdrawal = await player.client.post('/api/wallet/withdraw', {
      amount: 50_000,
      bankAccountId: account.body.id,
    });
    expect(withdrawal.status).toBe(201);
    const { id } = withdrawal.body;

    const key = { 'idempotency-key': `first-approval-${id}` };
    const first = await api.admin.client.patch(`/api/admin/transactions/${id}/approve`, undefined, key);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      message: 'A second administrator must approve withdrawals of ₹50,000 or more',
      transaction: { id, status: 'pending', amount: -50_000 },
    });
    // a retry with the same key learns the first answer, 202 included, and approves nothing again
    const retried = await api.admin.client.patch(`/api/admin/transactions/${id}/approve`, undefined, key);
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    const again = await approve(api.admin, id);
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ message: 'A second administrator must approve this withdrawal' });
    expect(await balance(api.db, player.id)).toBe(60_000);

    const second = await approve(secondAdmin, id);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id, status: 'completed' });
    expect(await balance(api.db, player.id)).toBe(10_000);
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
