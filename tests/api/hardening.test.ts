/**
 * Attempts at misuse, over HTTP: admin self-dealing, rate limits under parallel requests,
 * hostile input (never a 500), the sandbox gateway's owner check, settled deposit references, payments
 * after a rejection (credited once), X-Forwarded-For/-Proto behind the proxy, admin debits against the
 * available balance, look-alike usernames.
 */
import { describe, expect, it } from 'vitest';
import {
  apiSuite,
  balance,
  Client,
  createAdmin,
  createMatch,
  depositReference,
  fund,
  newBankAccount,
  randomIp,
  registerPlayer,
  sendWebhook,
  signedWebhook,
  unique,
  type Player,
} from '../support/api.ts';

const TOO_MANY = { message: 'Too many attempts. Please try again in a few minutes.' };
const SELF_DEALING = { message: 'You cannot approve or adjust your own wallet' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  async function pendingDeposit(player: Player, amount = 1000) {
    const reference = depositReference();
    const answer = await player.client.post('/api/wallet/deposit', { amount, paymentMethod: 'upi', reference });
    expect(answer.status).toBe(201);
    return { reference, id: answer.body.id as number };
  }

  const ledger = async (userId: number) =>
    (await api.db`select count(*)::int as n from public.transactions where user_id = ${userId}`)[0].n as number;

  it('refuses an admin approving, rejecting or adjusting their own wallet (403), another admin may', async () => {
    const own = await pendingDeposit(api.admin, 2000);
    const approve = await api.admin.client.patch(`/api/admin/transactions/${own.id}/approve`);
    expect(approve.status).toBe(403);
    expect(approve.body).toEqual(SELF_DEALING);
    const reject = await api.admin.client.patch(`/api/admin/transactions/${own.id}/reject`);
    expect(reject.status).toBe(403);
    expect(reject.body).toEqual(SELF_DEALING);
    const adjust = await api.admin.client.post(`/api/admin/users/${api.admin.id}/wallet`, {
      amount: 100000,
      notes: 'me',
    });
    expect(adjust.status).toBe(403);
    expect(adjust.body).toEqual(SELF_DEALING);
    expect(await balance(api.db, api.admin.id)).toBe(0);

    const other = await createAdmin(api.server, api.db);
    expect((await other.client.patch(`/api/admin/transactions/${own.id}/approve`)).status).toBe(200);
    expect(await balance(api.db, api.admin.id)).toBe(2000);
  });

  it('holds the per-username-and-address login limit under 40 parallel wrong logins: at most 10 are 401, the rest 429', async () => {
    const player = await registerPlayer(api.server);
    const attacker = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        new Client(api.server.url, attacker).post('/api/login', { username: player.username, password: 'wrong-pass' }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(count(statuses, 401)).toBeGreaterThan(0);
    expect(count(statuses, 401)).toBeLessThanOrEqual(10);
    expect(count(statuses, 429)).toBe(40 - count(statuses, 401));
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body).toEqual(TOO_MANY);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // the right password is refused too from that address while it is blocked
    expect(
      (
        await new Client(api.server.url, attacker).post('/api/login', {
          username: player.username,
          password: player.password,
        })
      ).status,
    ).toBe(429);
  });

  it('slows 60 parallel wrong logins for one username from 60 addresses with a short Retry-After, never a lockout', async () => {
    const player = await registerPlayer(api.server);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        new Client(api.server.url, randomIp()).post('/api/login', {
          username: player.username,
          password: 'wrong-pass',
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(count(statuses, 401)).toBeGreaterThanOrEqual(50);
    expect(count(statuses, 401)).toBeLessThan(60);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBe(60 - count(statuses, 401));
    expect(refused[0].body).toEqual({ message: 'Too many attempts for this username. Please try again in a minute.' });
    for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('holds the per-IP registration limit under 30 parallel duplicate registrations: at most 10 are 409', async () => {
    const taken = await registerPlayer(api.server);
    const ip = randomIp();
    const statuses = (
      await Promise.all(
        Array.from({ length: 30 }, () =>
          new Client(api.server.url, ip).post('/api/register', {
            name: 'Duplicate',
            username: taken.username,
            email: `${unique('dup')}@example.com`,
            password: 'secret-123',
          }),
        ),
      )
    ).map((answer) => answer.status);
    expect(count(statuses, 409)).toBeGreaterThan(0);
    expect(count(statuses, 409)).toBeLessThanOrEqual(10);
    expect(count(statuses, 429)).toBe(30 - count(statuses, 409));
  });

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

  it('refuses a NUL character in text fields with 400 (never 500) and stores nothing', async () => {
    const username = unique('nul');
    const register = await new Client(api.server.url).post('/api/register', {
      name: 'Nul\u0000Name',
      username,
      email: `${username}@example.com`,
      password: 'secret-123',
    });
    expect(register.status).toBe(400);
    expect(register.body).toEqual({ message: 'Name contains invalid characters' });
    expect((await api.db`select count(*)::int as n from public.users where username = ${username}`)[0].n).toBe(0);

    const login = await new Client(api.server.url).post('/api/login', {
      username: 'nul\u0000user',
      password: 'secret-123',
    });
    expect(login.status).toBe(400);
    expect(login.body).toEqual({ message: 'Username contains invalid characters' });

    const player = await registerPlayer(api.server);
    const account = await player.client.post('/api/bank-accounts', {
      ...newBankAccount(),
      account_holder: 'Holder\u0000Name',
    });
    expect(account.status).toBe(400);
    expect(account.body).toEqual({ message: 'Account holder contains invalid characters' });
    const notes = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, {
      amount: 100,
      notes: 'why\u0000',
    });
    expect(notes.status).toBe(400);
    expect(notes.body).toEqual({ message: 'Notes contains invalid characters' });
    const match = await api.admin.client.post('/api/admin/matches', {
      team1_id: 1,
      team2_id: 2,
      start_time: new Date(Date.now() + 3_600_000).toISOString(),
      venue: 'Eden\u0000Gardens',
    });
    expect(match.status).toBe(400);
    expect(match.body).toEqual({ message: 'Venue contains invalid characters' });

    // the safety net: a NUL that reaches SQL (the webhook's reference) is 400 'Invalid input', no SQL text
    const hook = await sendWebhook(api.server, { reference: 'REF-1\u0000-AAAA', amount: 500, status: 'success' });
    expect(hook.status).toBe(400);
    expect(hook.body).toEqual({ message: 'Invalid input' });
    expect(await balance(api.db, player.id)).toBe(0);
    expect(await ledger(player.id)).toBe(0);
  });

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

  it('answers 409 Duplicate gateway transaction when two webhooks race with one gateway id', async () => {
    const [a, b] = await Promise.all([registerPlayer(api.server), registerPlayer(api.server)]);
    const [depositA, depositB] = await Promise.all([pendingDeposit(a, 1000), pendingDeposit(b, 1000)]);
    const gatewayId = unique('gw-race');
    let first: Promise<Awaited<ReturnType<typeof sendWebhook>>>;
    await api.db.begin(async (tx) => {
      // Hold A's wallet: A's webhook passes its duplicate check, then waits to credit…
      await tx`select 1 from public.users where id = ${a.id} for update`;
      first = sendWebhook(api.server, {
        reference: depositA.reference,
        amount: 1000,
        status: 'success',
        gateway_txn_id: gatewayId,
      });
      for (let i = 0; i < 100; i++) {
        const [{ n }] =
          await api.db`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and query like '%complete_deposit%'`;
        if (n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // …while B's webhook with the same gateway id completes first.
      const second = await sendWebhook(api.server, {
        reference: depositB.reference,
        amount: 1000,
        status: 'success',
        gateway_txn_id: gatewayId,
      });
      expect(second.status).toBe(200);
    });
    const raced = await first!;
    expect(raced.status).toBe(409);
    expect(raced.body).toEqual({ message: 'Duplicate gateway transaction' });
    expect(await balance(api.db, a.id)).toBe(0);
    expect(await balance(api.db, b.id)).toBe(1000);
    const [row] = await api.db`select status, gateway_txn_id from public.transactions where id = ${depositA.id}`;
    expect(row).toEqual({ status: 'pending', gateway_txn_id: null });
  });

  it('lets only the signed-in owner pay or fail a deposit through the sandbox gateway', async () => {
    const [owner, other] = await Promise.all([registerPlayer(api.server), registerPlayer(api.server)]);
    const { reference, id } = await pendingDeposit(owner, 1500);
    const form = (outcome: string) => new URLSearchParams({ amount: '1500', reference, outcome }).toString();

    const anonymous = await new Client(api.server.url).post('/api/payments/sandbox', form('success'), {
      ...FORM,
      origin: api.server.url,
    });
    expect(anonymous.status).toBe(401);
    for (const outcome of ['success', 'failed']) {
      const foreign = await other.client.post('/api/payments/sandbox', form(outcome), {
        ...FORM,
        origin: api.server.url,
      });
      expect(foreign.status).toBe(404);
    }
    const byAdmin = await api.admin.client.post('/api/payments/sandbox', form('failed'), {
      ...FORM,
      origin: api.server.url,
    });
    expect(byAdmin.status).toBe(404);
    const [row] = await api.db`select status from public.transactions where id = ${id}`;
    expect(row.status).toBe('pending');

    // the owner's Pay credits the stored amount, whatever the form says
    const paid = await owner.client.post(
      '/api/payments/sandbox',
      new URLSearchParams({ amount: '99999', reference, outcome: 'success' }).toString(),
      { ...FORM, origin: api.server.url },
    );
    expect(paid.status).toBe(303);
    expect(await balance(api.db, owner.id)).toBe(1500);
  });

  it('answers 409 Reference already used for a settled reference; a pending one is the same deposit', async () => {
    const player = await registerPlayer(api.server);
    const completed = await fund(api.server, player, 1000);
    const failed = await pendingDeposit(player, 800);
    expect(
      (
        await sendWebhook(api.server, {
          reference: failed.reference,
          amount: 800,
          status: 'failed',
          gateway_txn_id: unique('gw'),
        })
      ).status,
    ).toBe(200);
    const rows = await ledger(player.id);
    for (const [reference, amount] of [
      [completed, 1000],
      [failed.reference, 800],
    ] as const) {
      const again = await player.client.post('/api/wallet/deposit', { amount, paymentMethod: 'upi', reference });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ message: 'Reference already used' });
    }
    const pending = await pendingDeposit(player, 700);
    const retry = await player.client.post('/api/wallet/deposit', {
      amount: 700,
      paymentMethod: 'upi',
      reference: pending.reference,
    });
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(pending.id);
    expect(await ledger(player.id)).toBe(rows + 1);
    expect(await balance(api.db, player.id)).toBe(1000);
  });

  it('credits a gateway success after an admin rejection once, tells the admins, and a replay moves nothing', async () => {
    const player = await registerPlayer(api.server);
    const { reference, id } = await pendingDeposit(player, 2500);
    expect((await api.admin.client.patch(`/api/admin/transactions/${id}/reject`)).status).toBe(200);
    expect(await balance(api.db, player.id)).toBe(0);
    const gatewayId = unique('gw-late');
    const event = { reference, amount: 2500, status: 'success', gateway_txn_id: gatewayId };
    const late = await sendWebhook(api.server, event);
    expect(late.status).toBe(200);
    expect(late.body).toEqual({ reference, status: 'completed' });
    expect(await balance(api.db, player.id)).toBe(2500);
    const rows = await ledger(player.id);

    const replay = await sendWebhook(api.server, event); // the gateway's retry
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ reference, status: 'completed' });
    const other = await sendWebhook(api.server, { ...event, gateway_txn_id: unique('gw-other') });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ message: 'Transaction already settled' });
    expect(await balance(api.db, player.id)).toBe(2500);
    expect(await ledger(player.id)).toBe(rows);
    const [row] = await api.db`select status, gateway_txn_id from public.transactions where id = ${id}`;
    expect(row).toEqual({ status: 'completed', gateway_txn_id: gatewayId });
    const wallet = await player.client.get('/api/wallet/transactions');
    expect(wallet.body.find((entry: { id: number }) => entry.id === id)).toMatchObject({
      status: 'completed',
      amount: 2500,
    });

    const audit = await api.admin.client.get('/api/admin/audit-log?limit=1000');
    expect(audit.status).toBe(200);
    const rejection = audit.body.find(
      (entry: { action: string; target_id: number }) => entry.action === 'transaction.reject' && entry.target_id === id,
    );
    const entries = audit.body.filter(
      (entry: { action: string; target_id: number }) =>
        entry.action === 'deposit.paid_after_rejection' && entry.target_id === id,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      target_type: 'transaction',
      admin_id: null,
      before: { status: 'failed', rejection_audit_id: rejection.id, rejected_by: api.admin.id },
      after: { status: 'completed', gateway_txn_id: gatewayId, amount: 2500 },
    });
  });

  it("takes the right-most X-Forwarded-For entry (the proxy's), not the client-controlled left ones", async () => {
    const taken = await registerPlayer(api.server);
    const proxySeen = randomIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const answer = await new Client(api.server.url, `${randomIp()}, ${proxySeen}`).post('/api/register', {
        name: 'Again',
        username: taken.username,
        email: `${unique('e')}@example.com`,
        password: 'secret-123',
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(10).fill(409), 429]);
  });

  it('sets Secure on the cookie when the trusted proxy says X-Forwarded-Proto: https', async () => {
    const username = unique('sec');
    const answer = await new Client(api.server.url).post(
      '/api/register',
      { name: 'Secure Cookie', username, email: `${username}@example.com`, password: 'secret-123' },
      { 'x-forwarded-proto': 'https' },
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get('set-cookie')).toContain('Secure');
  });

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

  it.each([
    ['zero-width space', 'ali\u200bce'],
    ['right-to-left override', 'evil\u202egpj'],
    ['space', 'two words'],
    ['at sign', 'me@home'],
  ])('refuses a username with a %s (400)', async (_, name) => {
    const username = `${name}${unique('')}`;
    const answer = await new Client(api.server.url).post('/api/register', {
      name: 'Look Alike',
      username,
      email: `${unique('la')}@example.com`,
      password: 'secret-123',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: 'Username may contain only letters, digits, dots, hyphens and underscores',
    });
  });

  it('accepts dots, hyphens and underscores and signs in case-insensitively', async () => {
    const username = `Mixed.Case-${unique('ok')}_x`;
    const client = new Client(api.server.url);
    expect(
      (
        await client.post('/api/register', {
          name: 'Mixed Case',
          username,
          email: `${unique('mc')}@example.com`,
          password: 'secret-123',
        })
      ).status,
    ).toBe(201);
    const login = await new Client(api.server.url).post('/api/login', {
      username: username.toLowerCase(),
      password: 'secret-123',
    });
    expect(login.status).toBe(200);
  });
});

describe('sandbox gateway with a real webhook secret', () => {
  const secret = 'real-gateway-secret-for-tests';
  const api = apiSuite({
    server: {
      env: {
        PAYMENT_SANDBOX: 'true',
        PAYMENT_WEBHOOK_SECRET: secret,
        PAYMENT_GATEWAY_URL: 'https://gateway.invalid/pay',
      },
    },
  });

  it('is off: no sandbox pages, and the public sandbox secret signs nothing', async () => {
    const player = await registerPlayer(api.server);
    const reference = depositReference();
    const deposit = await player.client.post('/api/wallet/deposit', { amount: 1000, paymentMethod: 'upi', reference });
    expect(deposit.status).toBe(201);
    expect(deposit.body.redirect_url).toMatch(/^https:\/\/gateway\.invalid\/pay\?/);
    expect(
      (await player.client.get(`/api/payments/sandbox?amount=1000&username=x&reference=${reference}`)).status,
    ).toBe(404);
    const form = new URLSearchParams({ amount: '1000', reference, outcome: 'success' }).toString();
    expect((await player.client.post('/api/payments/sandbox', form, { ...FORM, origin: api.server.url })).status).toBe(
      404,
    );
    const event = { reference, amount: 1000, status: 'success', gateway_txn_id: unique('gw') };
    expect((await sendWebhook(api.server, event)).status).toBe(401); // signed with the local sandbox secret
    expect(await balance(api.db, player.id)).toBe(0);
    const { raw, headers } = signedWebhook(event, { secret });
    expect((await new Client(api.server.url).post('/api/payments/webhook', raw, headers)).status).toBe(200);
    expect(await balance(api.db, player.id)).toBe(1000);
  });
});

describe('live stream cap', () => {
  const api = apiSuite({ server: { env: { LIVE_MAX_STREAMS: '2' } } });

  it('answers 503 Too many live connections beyond the cap, and serves again when one closes', async () => {
    const open = await Promise.all(
      [0, 1].map(async () => {
        const abort = new AbortController();
        const response = await fetch(`${api.server.url}/api/live/matches`, { signal: abort.signal });
        expect(response.status).toBe(200);
        const reader = response.body!.getReader();
        await reader.read(); // ': connected'
        return { abort, reader };
      }),
    );
    const refused = await fetch(`${api.server.url}/api/live/matches`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ message: 'Too many live connections' });
    expect(refused.headers.get('retry-after')).toBe('30');

    open[0].abort.abort();
    let status = 0;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && status !== 200;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await new Client(api.server.url).streamStatus('/api/live/matches');
    }
    expect(status).toBe(200);
    open[1].abort.abort();
  });
});
