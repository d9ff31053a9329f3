/**
 * The payment gateway's side, /api/payments (edge-functions/api/routes/payments.ts): the signed webhook
 * (credited once, refused when forged, stale, unknown or for another amount, a race of two with one gateway id,
 * a success after an admin rejection) and the sandbox gateway's pages (only for the deposit's owner, escaped, off
 * with a real webhook secret). pgTAP: supabase/tests/20a-deposits, 20d-late-deposit-payment.
 */
import { describe, expect, it } from 'vitest';
import {
  apiSuite,
  balance,
  Client,
  depositReference,
  registerPlayer,
  sendWebhook,
  signedWebhook,
  unique,
  pendingDeposit,
  transactionCount,
} from '../support/api.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('payment webhook and sandbox gateway', () => {
  const api = apiSuite({ reconciled: true });

  it('credits a deposit once on the signed success webhook; a replay changes nothing', async () => {
    const player = await registerPlayer(api.server);
    const { reference } = await pendingDeposit(player, 1500, { status: 'completed' });
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
    const { reference } = await pendingDeposit(player, 1000, { status: 'completed' });
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
    const { reference } = await pendingDeposit(player, 1000, { status: 'completed' });
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
    const { answer, reference } = await pendingDeposit(player, 3000, { status: 'completed' });
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
});

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

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
    const rows = await transactionCount(api.db, player.id);

    const replay = await sendWebhook(api.server, event); // the gateway's retry
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ reference, status: 'completed' });
    const other = await sendWebhook(api.server, { ...event, gateway_txn_id: unique('gw-other') });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ message: 'Transaction already settled' });
    expect(await balance(api.db, player.id)).toBe(2500);
    expect(await transactionCount(api.db, player.id)).toBe(rows);
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
