/**
 * Users in the back office, /api/admin/users (edge-functions/api/routes/admin/users.ts): the user list and search
 * with their counts, a user's details and tabs, a user's status (never an admin's own; ending their sessions),
 * wallet adjustments (never an admin's own, audited, never below the available balance, from ₹50,000 for a second
 * administrator), and the accounts linked to a user, to which an admin applies a running exclusion. The rules'
 * boundaries are pgTAP's (supabase/tests/40a-admin, 40b-lists, 40c-four-eyes, 10b-one-person).
 */
import { describe, expect, it, beforeAll } from 'vitest';
import {
  apiSuite,
  createAdmin,
  registerPlayer,
  unique,
  type Player,
  balance,
  createMatch,
  fund,
  newBankAccount,
  anotherBrowser,
  signIn,
  sharingAPhone,
  pendingDeposit,
  pendingDeposits,
  walk,
} from '../../support/api.ts';

describe('account security', () => {
  const api = apiSuite();

  describe('sessions follow the account', () => {
    it('ends every session of a user whose status an admin changes, and of a suspended user made active again', async () => {
      const admin = await createAdmin(api.server, api.db);
      const player = await registerPlayer(api.server);
      const second = await anotherBrowser(api.server, player);
      expect((await admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'suspended' })).status).toBe(
        200,
      );
      expect((await player.client.get('/api/user')).status).toBe(401);
      expect((await second.get('/api/user')).status).toBe(401);

      const again = await anotherBrowser(api.server, player); // a suspended player may sign in and look
      expect((await admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'active' })).status).toBe(200);
      expect((await again.get('/api/user')).status).toBe(401);
      expect((await admin.client.get('/api/user')).status).toBe(200); // the admin's own session is untouched
    });
  });
});

describe('wallet adjustments', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('adjusts wallets (credit, debit, refusals) with an audit trail', async () => {
    const player = await registerPlayer(api.server);
    const credit = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, {
      amount: 700,
      notes: 'Goodwill credit',
    });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({
      type: 'admin_adjustment',
      amount: 700,
      status: 'completed',
      notes: 'Goodwill credit',
    });
    const debit = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, {
      amount: -200,
      notes: 'Correction',
    });
    expect(debit.status).toBe(201);
    expect(await balance(api.db, player.id)).toBe(500);
    const cases: [unknown, number, string][] = [
      [{ amount: 0, notes: 'x' }, 400, 'Amount must be greater than 0'],
      [{ amount: 100001, notes: 'x' }, 400, 'Maximum amount is 100,000'],
      [{ amount: 5 }, 400, 'Please provide a reason for this adjustment'],
      [{ amount: 5, notes: 'x'.repeat(201) }, 400, 'Notes must be under 200 characters'],
      [{ amount: -501, notes: 'too much' }, 409, 'Insufficient balance'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, body);
      expect([answer.status, answer.body]).toEqual([status, { message }]);
    }
    expect((await api.admin.client.post('/api/admin/users/99999999/wallet', { amount: 5, notes: 'x' })).status).toBe(
      404,
    );
    const audit = await api.admin.client.get('/api/admin/audit-log?limit=1000');
    expect(audit.status).toBe(200);
    expect(
      audit.body.some(
        (entry: { action: string; target_id: number }) =>
          entry.action === 'wallet.adjust' && entry.target_id === player.id,
      ),
    ).toBe(true);
  });
});

describe('the book cannot be beaten', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let secondAdmin: Player;
  beforeAll(async () => {
    secondAdmin = await createAdmin(api.server, api.db);
  });

  it('an admin credit of ₹50,000 or more waits for a second administrator', async () => {
    const player = await registerPlayer(api.server);
    const credit = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, {
      amount: 50_000,
      notes: 'Tournament prize',
    });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({
      amount: 50_000,
      type: 'admin_adjustment',
      status: 'pending',
      requested_by: api.admin.id,
    });
    expect(await balance(api.db, player.id)).toBe(0);

    const pending = await secondAdmin.client.get('/api/admin/transactions?status=pending&limit=200');
    expect(pending.body.map((row: { id: number }) => row.id)).toContain(credit.body.id);
    const own = await api.admin.client.patch(`/api/admin/transactions/${credit.body.id}/approve`);
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ message: 'A second administrator must approve this adjustment' });
    expect(await balance(api.db, player.id)).toBe(0);

    const approved = await secondAdmin.client.patch(`/api/admin/transactions/${credit.body.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('completed');
    expect(await balance(api.db, player.id)).toBe(50_000);

    const small = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, {
      amount: 49_999,
      notes: 'Goodwill',
    });
    expect(small.body.status).toBe('completed');
    expect(await balance(api.db, player.id)).toBe(99_999);
  });
});

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('refuses an admin debit that takes the available balance below zero (409)', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const account = await player.client.post('/api/bank-accounts', {
      ...newBankAccount('Holder Name'),
    });
    const withdrawal = await player.client.post('/api/wallet/withdraw', {
      amount: 1500,
      bankAccountId: account.body.id,
    });
    expect(withdrawal.status).toBe(201);
    const debit = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, {
      amount: -501,
      notes: 'chargeback',
    });
    expect(debit.status).toBe(409);
    expect(debit.body).toEqual({ message: 'Insufficient balance' });
    expect(await balance(api.db, player.id)).toBe(2000);
    expect(
      (await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, { amount: -500, notes: 'chargeback' }))
        .status,
    ).toBe(201);
    expect((await api.admin.client.patch(`/api/admin/transactions/${withdrawal.body.id}/approve`)).status).toBe(200);
    expect(await balance(api.db, player.id)).toBe(0);
  });

  it('refuses an admin adjusting their own wallet or changing their own status (403), and a status that does not exist (400)', async () => {
    const player = await registerPlayer(api.server);
    const status = await api.admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'frozen' });
    expect([status.status, status.body]).toEqual([400, { message: 'Invalid status' }]);
    const self = await api.admin.client.patch(`/api/admin/users/${api.admin.id}/status`, { status: 'suspended' });
    expect(self.status).toBe(403);
    const adjust = await api.admin.client.post(`/api/admin/users/${api.admin.id}/wallet`, {
      amount: 100000,
      notes: 'me',
    });
    expect(adjust.status).toBe(403);
    expect(adjust.body).toEqual({ message: 'You cannot approve or adjust your own wallet' });
    expect(await balance(api.db, api.admin.id)).toBe(0);
  });
});

describe('one person, one account', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  const bet = (player: Player, matchId: number, teamId = 1) =>
    player.client.post('/api/bets', { match_id: matchId, team_id: teamId, amount: 1000 });

  it('admins see the accounts linked to a user by bank account, phone number or device, each with why', async () => {
    const [player, samePhone] = await sharingAPhone(api.server, api.db);
    const account = newBankAccount('Linked Player');
    expect((await player.client.post('/api/bank-accounts', account)).status).toBe(201);
    const sameBank = await registerPlayer(api.server);
    await api.db`
      insert into public.bank_accounts (user_id, account_holder, account_number, ifsc_code, bank_name, kept_duplicate)
      values (${sameBank.id}, 'Linked Player', ${account.account_number}, ${account.ifsc_code}, 'HDFC Bank', true)`;
    const sameDevice = await registerPlayer(api.server, {}, { sameBrowserAs: player });
    const stranger = await registerPlayer(api.server);

    const linked = await api.admin.client.get(`/api/admin/users/${player.id}/linked`);
    expect(linked.status).toBe(200);
    const [{ phone }] = await api.db`select phone from public.users where id = ${player.id}`;
    expect(linked.body).toEqual(
      [
        { account: samePhone, links: [{ reason: 'phone', detail: phone }] },
        {
          account: sameBank,
          links: [{ reason: 'bank_account', detail: `HDFC0001234 ending ${account.account_number.slice(-4)}` }],
        },
        {
          account: sameDevice,
          links: [{ reason: 'device', detail: expect.stringMatching(/^last signed in with it on .* IST$/) }],
        },
      ].map(({ account: { id, username }, links }) => ({
        id,
        username,
        name: `Player ${username}`,
        status: 'active',
        links,
        exclusion: null,
      })),
    );
    expect(linked.body.map((row: { id: number }) => row.id)).not.toContain(stranger.id);

    await api.db`update app.user_devices set last_sign_in_at = now() - interval '91 days' where user_id = ${sameDevice.id}`;
    const later = await api.admin.client.get(`/api/admin/users/${player.id}/linked`);
    expect(
      later.body.map((row: { id: number }) => row.id),
      'a device links for 90 days',
    ).not.toContain(sameDevice.id);
    expect((await player.client.get(`/api/admin/users/${player.id}/linked`)).status).toBe(403);
    expect((await api.admin.client.get('/api/admin/users/99999999/linked')).status).toBe(404);
  });

  it("an admin applies a player's running exclusion to a second account opened in the same browser (audited)", async () => {
    const excluded = await registerPlayer(api.server);
    expect((await excluded.client.post('/api/account/timeout', { days: 7 })).status).toBe(201);
    // the excluded player opens a new account without a phone number, in their own browser
    const second = await registerPlayer(api.server, {}, { sameBrowserAs: excluded });
    await fund(api.server, second, 2000);
    const match = await createMatch(api.admin, { live: true });
    expect((await bet(second, match.id)).status, 'a device alone binds nothing').toBe(201);

    const linked = (await api.admin.client.get(`/api/admin/users/${second.id}/linked`)).body;
    expect(linked).toEqual([
      expect.objectContaining({
        id: excluded.id,
        exclusion: { kind: 'timeout', ends_at: expect.any(String), binds_this_user: false },
      }),
    ]);
    const applied = await api.admin.client.post(`/api/admin/users/${second.id}/linked/${excluded.id}/exclusion`);
    expect(applied.status).toBe(201);
    expect(applied.body.timeout_until).toBe(linked[0].exclusion.ends_at);
    await signIn(second);
    const refused = await bet(second, match.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual((await bet(excluded, match.id)).body);
    const [audit] = await api.db`
      select admin_id, after from public.audit_log
      where action = 'protection.apply_linked_exclusion' and target_id = ${second.id}`;
    expect(audit).toEqual({
      admin_id: api.admin.id,
      after: { from_user_id: excluded.id, kind: 'timeout', ends_at: expect.any(String), linked_by: 'device' },
    });
    const again = await api.admin.client.post(`/api/admin/users/${second.id}/linked/${excluded.id}/exclusion`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'This account is already bound by that exclusion' });
    expect((await api.admin.client.get(`/api/admin/users/${second.id}/linked`)).body[0].exclusion.binds_this_user).toBe(
      true,
    );

    const stranger = await registerPlayer(api.server);
    const unlinked = await api.admin.client.post(`/api/admin/users/${stranger.id}/linked/${excluded.id}/exclusion`);
    expect(unlinked.status).toBe(409);
    expect(unlinked.body).toEqual({ message: 'These accounts are not linked by a device' });
    const byPlayer = await second.client.post(`/api/admin/users/${second.id}/linked/${excluded.id}/exclusion`);
    expect(byPlayer.status).toBe(403);
  });
});

describe('lists: keyset pages, search, filters and counts', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it("lists a new player and shows their details and tabs; an unknown user is 'User not found'", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 1000);
    await pendingDeposit(player, 800);
    expect((await api.admin.client.get('/api/admin/users')).body.some((u: { id: number }) => u.id === player.id)).toBe(
      true,
    );
    expect((await api.admin.client.get(`/api/admin/users/${player.id}`)).body).toMatchObject({
      id: player.id,
      wallet_balance: 1000,
    });
    expect((await api.admin.client.get(`/api/admin/users/${player.id}/transactions`)).body).toHaveLength(2);
    expect((await api.admin.client.get(`/api/admin/users/${player.id}/bets`)).body).toEqual([]);
    expect((await api.admin.client.get(`/api/admin/users/${player.id}/bank-accounts`)).body).toEqual([]);
    // the wallet's ledger, which an admin reads with ?userId=, holds the same two
    expect((await api.admin.client.get(`/api/wallet/transactions?userId=${player.id}`)).body).toHaveLength(2);
    expect((await api.admin.client.get('/api/admin/users/99999999')).body).toEqual({ message: 'User not found' });
  });

  it("pages an admin's user tabs, counting the transactions and bets", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const pending = await pendingDeposits(api.db, player.id, 4);
    for (const n of [1, 2, 3]) {
      const added = await player.client.post('/api/bank-accounts', {
        ...newBankAccount('Tab Player'),
        bank_name: `Bank ${n}`,
      });
      expect(added.status).toBe(201);
    }
    const transactions = await api.admin.client.get(`/api/admin/users/${player.id}/transactions?limit=3`);
    expect(transactions.headers.get('x-total-count')).toBe('5');
    expect(transactions.body.map((t: { id: number }) => t.id)).toEqual(pending.slice(1).reverse());
    const bets = await api.admin.client.get(`/api/admin/users/${player.id}/bets`);
    expect(bets.headers.get('x-total-count')).toBe('0');
    expect(bets.body).toEqual([]);
    const accounts = await walk(api.admin.client, `/api/admin/users/${player.id}/bank-accounts?limit=2`);
    expect(accounts.map((ids) => ids.length)).toEqual([2, 1]);
    const ids = accounts.flat();
    expect(ids).toEqual([...ids].sort((a, b) => a - b)); // in the order added
    expect((await api.admin.client.get('/api/admin/users/999999/transactions')).status).toBe(404);
  });

  it('finds users by id, by a part of the username, name or email, and by status tab, with counts', async () => {
    const tag = unique('srch').toLowerCase();
    const target = await registerPlayer(api.server, {
      email: `${tag}.someone@mail.example.com`,
      name: 'Zebulon Quixote',
    });
    const other = await registerPlayer(api.server);
    const byEmail = await api.admin.client.get(`/api/admin/users?q=${tag.slice(2, 12).toUpperCase()}`);
    expect(byEmail.body.map((u: { id: number }) => u.id)).toEqual([target.id]);
    expect(
      (await api.admin.client.get('/api/admin/users?q=bulon%20quix')).body.map((u: { id: number }) => u.id),
    ).toContain(target.id);
    expect((await api.admin.client.get(`/api/admin/users?q=${target.username.slice(1, 9)}`)).body[0].id).toBe(
      target.id,
    );
    const byId = await api.admin.client.get(`/api/admin/users?q=${other.id}`);
    expect(byId.body.map((u: { id: number }) => u.id)).toContain(other.id);
    // LIKE wildcards in a search are plain characters
    expect((await api.admin.client.get('/api/admin/users?q=%25%25_')).body).toEqual([]);

    const before = (await api.admin.client.get('/api/admin/users/counts')).body;
    expect(before.all).toBe(before.active + before.suspended + before.banned);
    expect((await api.admin.client.patch(`/api/admin/users/${target.id}/status`, { status: 'suspended' })).status).toBe(
      200,
    );
    const after = (await api.admin.client.get('/api/admin/users/counts')).body;
    expect(after).toEqual({ ...before, active: before.active - 1, suspended: before.suspended + 1 });
    const [{ count }] = await api.db`select count(*)::int as count from public.users where status = 'suspended'`;
    expect(after.suspended).toBe(count);

    const suspended = await walk(api.admin.client, '/api/admin/users?status=suspended&limit=2');
    expect(suspended.flat()).toContain(target.id);
    const statuses = await api.admin.client.get(`/api/admin/users?status=suspended&q=${tag}`);
    expect(statuses.body.map((u: { id: number; status: string }) => [u.id, u.status])).toEqual([
      [target.id, 'suspended'],
    ]);
    expect((await api.admin.client.get(`/api/admin/users?status=banned&q=${tag}`)).body).toEqual([]);
    // the whole list, newest first, each user once
    const everyone = (await walk(api.admin.client, '/api/admin/users?limit=200')).flat();
    expect(everyone).toEqual([...everyone].sort((a, b) => b - a));
    expect(everyone).toHaveLength(after.all);
  });
});
