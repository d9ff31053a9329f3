import { describe, expect, it } from 'vitest';
import {
  apiSuite,
  balance,
  Client,
  createAdmin,
  depositReference,
  fund,
  registerPlayer,
  sendWebhook,
  signedWebhook,
  newBankAccount,
  unique,
  type Player,
} from '../support/api.ts';

/** A bank account of a player's own: nobody else holds it (one account per bank account). */
const ownAccount = () => ({ ...newBankAccount('Rahul Sharma'), ifsc_code: 'sbin0001234', bank_name: 'State Bank' });

describe('wallet: deposits, payment webhook, sandbox gateway, withdrawals, bank accounts', () => {
  const api = apiSuite({ reconciled: true });

  async function pendingDeposit(player: Player, amount = 1000) {
    const reference = depositReference();
    const answer = await player.client.post('/api/wallet/deposit', {
      amount,
      paymentMethod: 'upi',
      reference,
      status: 'completed',
    });
    expect(answer.status).toBe(201);
    return { reference, answer };
  }

  it('creates a pending deposit whatever status the client sends, with the gateway redirect', async () => {
    const player = await registerPlayer(api.server);
    const { reference, answer } = await pendingDeposit(player, 2500);
    expect(answer.body).toMatchObject({
      amount: 2500,
      reference_id: reference,
      status: 'pending',
      type: 'deposit',
      user_id: player.id,
    });
    expect(answer.body.redirect_url).toBe(
      `/api/payments/sandbox?amount=2500&username=${player.username}&reference=${reference}`,
    );
    expect(await balance(api.db, player.id)).toBe(0);
    const [row] = await api.db`select status, amount from public.transactions where reference_id = ${reference}`;
    expect(row).toEqual({ status: 'pending', amount: 2500 });
    // the same reference again is the same transaction
    const again = await player.client.post('/api/wallet/deposit', { amount: 2500, paymentMethod: 'upi', reference });
    expect(again.body.id).toBe(answer.body.id);
  });

  it.each([
    [{ amount: 499 }, 'Minimum deposit amount is ₹500'],
    [{ amount: 100001 }, 'Maximum deposit amount is ₹100,000'],
    [{ paymentMethod: 'card' }, 'Please select a payment method'],
    [{ reference: 'bogus' }, 'Invalid reference'],
  ])('refuses deposit %j with 400 "%s"', async (override, message) => {
    const player = await registerPlayer(api.server);
    const answer = await player.client.post('/api/wallet/deposit', {
      amount: 1000,
      paymentMethod: 'upi',
      reference: depositReference(),
      ...override,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
  });

  it('credits a deposit once on the signed success webhook; a replay changes nothing', async () => {
    const player = await registerPlayer(api.server);
    const { reference } = await pendingDeposit(player, 1500);
    const event = { reference, amount: 1500, status: 'success', gateway_txn_id: unique('gw') };
    const first = await sendWebhook(api.server, event);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ reference, status: 'completed' });
    expect(await balance(api.db, player.id)).toBe(1500);
    const replay = await sendWebhook(api.server, event);
    expect(replay.status).toBe(200);
    expect(await balance(api.db, player.id)).toBe(1500);
    const [{ count }] =
      await api.db`select count(*)::int as count from public.transactions where user_id = ${player.id} and status = 'completed'`;
    expect(count).toBe(1);
  });

  it('marks a deposit failed on the failure event, moving no money', async () => {
    const player = await registerPlayer(api.server);
    const { reference } = await pendingDeposit(player);
    const answer = await sendWebhook(api.server, {
      reference,
      amount: 1000,
      status: 'failed',
      gateway_txn_id: unique('gw'),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('failed');
    expect(await balance(api.db, player.id)).toBe(0);
  });

  it('refuses webhooks: bad signature, stale timestamp (401), unknown reference (404), amount mismatch (409)', async () => {
    const player = await registerPlayer(api.server);
    const { reference } = await pendingDeposit(player);
    const event = { reference, amount: 1000, status: 'success', gateway_txn_id: unique('gw') };

    const forged = await sendWebhook(api.server, event, { secret: 'not-the-secret' });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ message: 'Invalid signature' });

    // signed over one body, sent with another (re-serialized / tampered)
    const { headers } = signedWebhook(event);
    const tampered = await new Client(api.server.url).post(
      '/api/payments/webhook',
      JSON.stringify({ ...event, amount: 100000 }),
      headers,
    );
    expect(tampered.status).toBe(401);

    const unsigned = await new Client(api.server.url).post('/api/payments/webhook', event);
    expect(unsigned.status).toBe(401);

    const stale = await sendWebhook(api.server, event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({ message: 'Stale webhook timestamp' });

    const unknown = await sendWebhook(api.server, { ...event, reference: depositReference() });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Unknown reference' });

    const mismatch = await sendWebhook(api.server, { ...event, amount: 100000 });
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toEqual({ message: 'Amount mismatch' });

    const malformed = await new Client(api.server.url).post(
      '/api/payments/webhook',
      '{not json',
      signedWebhook('{not json').headers,
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Malformed JSON body' });

    expect(await balance(api.db, player.id)).toBe(0);
  });

  it('serves the sandbox gateway page and its Pay button completes the deposit and returns to /wallet', async () => {
    const player = await registerPlayer(api.server);
    const { answer, reference } = await pendingDeposit(player, 3000);
    const page = await new Client(api.server.url).get(answer.body.redirect_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(page.text).toContain('₹3,000');
    expect(page.text).toContain(reference);
    expect(page.text).toContain('>Pay<');
    expect(page.text).toContain('>Fail<');

    const form = new URLSearchParams({ amount: '3000', reference, outcome: 'success' }).toString();
    const paid = await player.client.post('/api/payments/sandbox', form, {
      'content-type': 'application/x-www-form-urlencoded',
      origin: api.server.url,
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('/wallet');
    expect(await balance(api.db, player.id)).toBe(3000);
  });

  it('escapes what the sandbox page shows', async () => {
    const page = await new Client(api.server.url).get(
      '/api/payments/sandbox?amount=500&username=%3Cscript%3E&reference=REF-1-AAAA',
    );
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('&lt;script&gt;');
  });

  it('adds bank accounts for the caller only, ignoring a user_id in the body', async () => {
    const player = await registerPlayer(api.server);
    const other = await registerPlayer(api.server);
    const answer = await player.client.post('/api/bank-accounts', { ...ownAccount(), user_id: other.id });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ user_id: player.id, ifsc_code: 'SBIN0001234', is_active: true });
    const [row] = await api.db`select user_id from public.bank_accounts where id = ${answer.body.id}`;
    expect(row.user_id).toBe(player.id);
    expect((await other.client.get('/api/bank-accounts')).body).toEqual([]);
    expect((await player.client.get('/api/bank-accounts')).body).toHaveLength(1);
  });

  it.each([
    [{ account_holder: 'Al' }, 'Account holder name must be at least 3 characters'],
    [{ account_number: '12345678' }, 'Account number must be valid'],
    [{ account_number: '1'.repeat(51) }, 'Account number must be valid'],
    [{ ifsc_code: 'SBIN00' }, 'IFSC code must be 11 characters'],
    [{ bank_name: 'SB' }, 'Bank name must be at least 3 characters'],
  ])('refuses bank account %j with 400 "%s"', async (override, message) => {
    const player = await registerPlayer(api.server);
    const answer = await player.client.post('/api/bank-accounts', { ...ownAccount(), ...override });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
  });

  it('creates a pending withdrawal to an own account and replays it for the same Idempotency-Key', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const account = (await player.client.post('/api/bank-accounts', ownAccount())).body;
    const key = unique('idem');
    const first = await player.client.post(
      '/api/wallet/withdraw',
      { amount: 2000, bankAccountId: account.id },
      { 'idempotency-key': key },
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      type: 'withdrawal',
      status: 'pending',
      amount: -2000,
      bank_account_id: account.id,
    });
    const retry = await player.client.post(
      '/api/wallet/withdraw',
      { amount: 2000, bankAccountId: account.id },
      { 'idempotency-key': key },
    );
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(first.body.id);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const other = await player.client.post(
      '/api/wallet/withdraw',
      { amount: 2500, bankAccountId: account.id },
      { 'idempotency-key': key },
    );
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ message: 'Idempotency key reused with a different request' });
    const [{ count }] =
      await api.db`select count(*)::int as count from public.transactions where user_id = ${player.id} and type = 'withdrawal'`;
    expect(count).toBe(1);
    // pending withdrawals reduce what is available
    const tooMuch = await player.client.post('/api/wallet/withdraw', { amount: 3500, bankAccountId: account.id });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toEqual({ message: 'Insufficient balance' });
  });

  it('answers what a player may spend: available_balance and pending_withdrawals on every user answer', async () => {
    const player = await registerPlayer(api.server);
    const usable = (user: Record<string, unknown>) => ({
      wallet_balance: user.wallet_balance,
      available_balance: user.available_balance,
      pending_withdrawals: user.pending_withdrawals,
    });
    expect(usable((await player.client.get('/api/user')).body)).toEqual({
      wallet_balance: 0,
      available_balance: 0,
      pending_withdrawals: 0,
    });
    await fund(api.server, player, 5000);
    const account = (await player.client.post('/api/bank-accounts', ownAccount())).body;
    expect((await player.client.post('/api/wallet/withdraw', { amount: 1500, bankAccountId: account.id })).status).toBe(
      201,
    );
    expect((await player.client.post('/api/wallet/withdraw', { amount: 500, bankAccountId: account.id })).status).toBe(
      201,
    );
    const expected = { wallet_balance: 5000, available_balance: 3000, pending_withdrawals: 2000 };

    expect(usable((await player.client.get('/api/user')).body)).toEqual(expected);
    const login = await new Client(api.server.url).post('/api/login', {
      username: player.username,
      password: player.password,
    });
    expect(usable(login.body)).toEqual(expected);
    const admin = await createAdmin(api.server, api.db);
    expect(usable((await admin.client.get(`/api/admin/users/${player.id}`)).body)).toEqual(expected);
    const listed = (await admin.client.get('/api/admin/users')).body.find(
      (user: { id: number }) => user.id === player.id,
    );
    expect(usable(listed)).toEqual(expected);
    // the figure is the one the money functions check: 3000 may be bet or withdrawn, 3001 not
    const tooMuch = await player.client.post('/api/wallet/withdraw', { amount: 3001, bankAccountId: account.id });
    expect(tooMuch.body).toEqual({ message: 'Insufficient balance' });

    const [pending] = await api.db`select id from public.transactions where user_id = ${player.id} and amount = -500`;
    expect((await admin.client.patch(`/api/admin/transactions/${pending.id}/reject`)).status).toBe(200);
    expect(usable((await player.client.get('/api/user')).body)).toEqual({
      wallet_balance: 5000,
      available_balance: 3500,
      pending_withdrawals: 1500,
    });
  });

  it("refuses withdrawals: limits, no qualifying deposit, someone else's account", async () => {
    const player = await registerPlayer(api.server);
    const other = await registerPlayer(api.server);
    const account = (await player.client.post('/api/bank-accounts', ownAccount())).body;
    const otherAccount = (await other.client.post('/api/bank-accounts', ownAccount())).body;
    const cases: [unknown, number, string][] = [
      [{ amount: 499, bankAccountId: account.id }, 400, 'Minimum withdrawal amount is ₹500'],
      [{ amount: 50001, bankAccountId: account.id }, 400, 'Maximum withdrawal amount is ₹50,000'],
      [{ amount: 500, bankAccountId: 0 }, 400, 'Please select a bank account'],
      [{ amount: 500, bankAccountId: account.id }, 409, 'Insufficient balance'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await player.client.post('/api/wallet/withdraw', body);
      expect([answer.status, answer.body]).toEqual([status, { message }]);
    }
    await fund(api.server, player, 900); // below the qualifying 1000
    const noQualifying = await player.client.post('/api/wallet/withdraw', { amount: 500, bankAccountId: account.id });
    expect(noQualifying.status).toBe(409);
    expect(noQualifying.body.message).toBe(
      'Minimum deposit required: You need to have made at least one deposit of ₹1,000 or more to withdraw funds',
    );
    await fund(api.server, player, 1000);
    const foreign = await player.client.post('/api/wallet/withdraw', { amount: 500, bankAccountId: otherAccount.id });
    expect(foreign.status).toBe(403);
  });

  it('lists own transactions; ?userId= of someone else is a 403 for a player', async () => {
    const player = await registerPlayer(api.server);
    const other = await registerPlayer(api.server);
    await fund(api.server, player, 1000);
    const own = await player.client.get('/api/wallet/transactions');
    expect(own.status).toBe(200);
    expect(own.body).toHaveLength(1);
    expect(own.body[0]).toMatchObject({ type: 'deposit', amount: 1000, status: 'completed' });
    expect((await player.client.get(`/api/wallet/transactions?userId=${player.id}`)).status).toBe(200);
    const foreign = await other.client.get(`/api/wallet/transactions?userId=${player.id}`);
    expect(foreign.status).toBe(403);
    expect((await other.client.get('/api/wallet/transactions')).body).toEqual([]);
  });
});
