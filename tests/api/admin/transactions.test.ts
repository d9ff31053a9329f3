/**
 * Pending deposits and withdrawals in the back office, /api/admin/transactions: approving and rejecting (never
 * an admin's own; from adjustment_review_amount up the first of two admins; every approval against the admin's
 * daily credit cap), and the search of transactions by id, user or reference. The rules' boundaries are pgTAP's
 * (supabase/tests/40a-admin, 40b-lists, 40c-four-eyes); races are in tests/db/concurrency.test.ts.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import {
  apiSuite,
  balance,
  depositReference,
  fund,
  registerPlayer,
  createAdmin,
  type Player,
  pendingDeposit,
  pendingDeposits,
} from '../../support/api.ts';
import { randomInt } from 'node:crypto';

const SELF_DEALING = { message: 'You cannot approve or adjust your own wallet' };

describe('pending transactions', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('approves and rejects pending transactions', async () => {
    const player = await registerPlayer(api.server);
    const ref1 = depositReference();
    const ref2 = depositReference();
    const first = await player.client.post('/api/wallet/deposit', {
      amount: 1000,
      paymentMethod: 'upi',
      reference: ref1,
    });
    const second = await player.client.post('/api/wallet/deposit', {
      amount: 800,
      paymentMethod: 'upi',
      reference: ref2,
    });
    const pending = await api.admin.client.get('/api/admin/transactions?type=deposit&status=pending');
    expect(pending.body.map((t: { id: number }) => t.id)).toEqual(
      expect.arrayContaining([first.body.id, second.body.id]),
    );
    const approved = await api.admin.client.patch(`/api/admin/transactions/${first.body.id}/approve`);
    expect(approved.body).toMatchObject({ status: 'completed' });
    const rejected = await api.admin.client.patch(`/api/admin/transactions/${second.body.id}/reject`);
    expect(rejected.body).toMatchObject({ status: 'failed' });
    expect(await balance(api.db, player.id)).toBe(1000);
    expect((await api.admin.client.patch(`/api/admin/transactions/${first.body.id}/approve`)).body).toEqual({
      message: 'Transaction is not pending',
    });
    expect((await api.admin.client.patch('/api/admin/transactions/99999999/reject')).status).toBe(404);
  });
});

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('refuses an admin approving or rejecting a deposit to their own wallet (403), another admin may', async () => {
    const own = await pendingDeposit(api.admin, 2000);
    const approve = await api.admin.client.patch(`/api/admin/transactions/${own.id}/approve`);
    expect(approve.status).toBe(403);
    expect(approve.body).toEqual(SELF_DEALING);
    const reject = await api.admin.client.patch(`/api/admin/transactions/${own.id}/reject`);
    expect(reject.status).toBe(403);
    expect(reject.body).toEqual(SELF_DEALING);
    expect(await balance(api.db, api.admin.id)).toBe(0);

    const other = await createAdmin(api.server, api.db);
    expect((await other.client.patch(`/api/admin/transactions/${own.id}/approve`)).status).toBe(200);
    expect(await balance(api.db, api.admin.id)).toBe(2000);
  });
});

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
});

describe('lists: keyset pages, search, filters and counts', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('finds transactions by id, user id or reference, and filters by type and status', async () => {
    const player = await registerPlayer(api.server);
    const reference = await fund(api.server, player, 1500);
    const [deposit] = (await player.client.get('/api/wallet/transactions')).body;
    const pending = await pendingDeposits(api.db, player.id, 2);
    const ids = (path: string) =>
      api.admin.client.get(path).then((answer) => answer.body.map((t: { id: number }) => t.id));

    expect(await ids(`/api/admin/transactions?q=${deposit.id}`)).toContain(deposit.id);
    expect(await ids(`/api/admin/transactions?q=%23${player.id}`)).toEqual(
      expect.arrayContaining([...pending, deposit.id]),
    );
    expect(await ids(`/api/admin/transactions?q=${reference.toLowerCase()}`)).toEqual([deposit.id]);
    expect(await ids('/api/admin/transactions?q=REF-none')).toEqual([]);

    const pendingDepositsPage = await api.admin.client.get(
      '/api/admin/transactions?type=deposit&status=pending&limit=200',
    );
    expect(
      pendingDepositsPage.body.every(
        (t: { type: string; status: string }) => t.type === 'deposit' && t.status === 'pending',
      ),
    ).toBe(true);
    expect(pendingDepositsPage.body.map((t: { id: number }) => t.id)).toEqual(expect.arrayContaining(pending));
    const withdrawals = await api.admin.client.get('/api/admin/transactions?type=withdrawal&status=pending');
    expect(
      withdrawals.body.every(
        (t: { type: string; status: string }) => t.type === 'withdrawal' && t.status === 'pending',
      ),
    ).toBe(true);
    expect((await api.admin.client.get('/api/admin/transactions?type=nope')).body).toEqual({
      message: 'Invalid transaction type',
    });

    const counts = (await api.admin.client.get('/api/admin/transactions/counts')).body;
    const [direct] = await api.db`
      select count(*) filter (where type = 'deposit')::int as pending_deposits,
             count(*) filter (where type = 'withdrawal')::int as pending_withdrawals,
             count(*) filter (where type = 'admin_adjustment')::int as pending_adjustments
      from public.transactions where status = 'pending'`;
    expect(counts).toEqual(direct);
    expect((await player.client.get('/api/admin/transactions/counts')).status).toBe(403);
  });
});
