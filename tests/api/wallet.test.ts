/**
 * The player's wallet, /api/wallet (edge-functions/api/routes/wallet.ts): deposits (validated, the
 * deposit limit's 409, a reference used once), withdrawals (limits, an own account, one per Idempotency-Key), the
 * ledger's keyset pages (src/domain/paging.ts) and the CSV statement. The rules' boundaries are pgTAP's
 * (supabase/tests/20a-deposits, 20b-withdrawals, 40b-lists, 50a-player-protection).
 */
import { describe, expect, it } from 'vitest';
import {
  apiSuite,
  deposit,
  istDay,
  balance,
  Client,
  depositReference,
  fund,
  registerPlayer,
  sendWebhook,
  unique,
  type Player,
  createMatch,
  ownAccount,
  pendingDeposit,
  pendingDeposits,
  transactionCount,
  walk,
} from '../support/api.ts';
import { protectionMessages } from '../../src/domain/protection.ts';
import { INVALID_CURSOR, INVALID_LIMIT, encodeCursor, nextPageUrl } from '../../src/domain/paging.ts';

const HOUR = 3_600_000;

describe('wallet: deposits, withdrawals, transactions', () => {
  const api = apiSuite({ reconciled: true });

  it('creates a pending deposit whatever status the client sends, with the gateway redirect', async () => {
    const player = await registerPlayer(api.server);
    const { reference, answer } = await pendingDeposit(player, 2500, { status: 'completed' });
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

describe('player protection', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('a deposit over the limit is a 409 naming the limit and what is left; a raise waits 24 hours', async () => {
    const player = await registerPlayer(api.server);
    const set = await player.client.put('/api/account/limits', { period: 'daily', amount: 5000 });
    expect(set.status).toBe(200);
    expect(set.body.deposit_limits).toEqual({ daily: 5000, weekly: null, monthly: null });
    expect((await deposit(player, 3000)).status).toBe(201);
    const over = await deposit(player, 2500);
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ message: 'Deposit limit reached: Your daily limit is ₹5,000 and ₹2,000 is left.' });
    expect((await deposit(player, 2000)).status).toBe(201);

    const raised = await player.client.put('/api/account/limits', { period: 'daily', amount: 10000 });
    expect(raised.body.deposit_limits.daily).toBe(5000);
    expect(raised.body.deposit_remaining.daily).toBe(0);
    expect(raised.body.pending_changes).toEqual([
      { period: 'daily', amount: 10000, requested_at: expect.any(String), effective_at: expect.any(String) },
    ]);
    const [change] = raised.body.pending_changes;
    expect(Date.parse(change.effective_at) - Date.parse(change.requested_at)).toBe(24 * HOUR);
    expect((await deposit(player, 500)).body).toEqual({
      message: 'Deposit limit reached: Your daily limit is ₹5,000 and nothing is left.',
    });
    expect((await player.client.get('/api/account/limits')).body).toEqual(raised.body);
  });

  it('of two concurrent deposits that together would pass the limit, one is refused', async () => {
    const player = await registerPlayer(api.server);
    await player.client.put('/api/account/limits', { period: 'weekly', amount: 5000 });
    const answers = await Promise.all([deposit(player, 3000), deposit(player, 3000)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body).toEqual({
      message: 'Deposit limit reached: Your weekly limit is ₹5,000 and ₹2,000 is left.',
    });
    const rows = await api.db`select amount from public.transactions where user_id = ${player.id} and type = 'deposit'`;
    expect(rows.map((row) => row.amount)).toEqual([3000]);
  });

  describe('statements', () => {
    async function statement(player: Player, query: string) {
      return player.client.get(`/api/wallet/statement.csv?${query}`);
    }

    it('lists the ledger between two dates with the running balance, for the player and an admin', async () => {
      const player = await registerPlayer(api.server);
      const funded = await fund(api.server, player, 3000);
      const pending = depositReference();
      await player.client.post('/api/wallet/deposit', { amount: 1000, paymentMethod: 'upi', reference: pending });
      const match = await createMatch(api.admin);
      const bet = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });

      const range = `from=${istDay(-1)}&to=${istDay(1)}`;
      const answer = await statement(player, range);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(answer.headers.get('content-disposition')).toBe(
        `attachment; filename="statement-${istDay(-1)}-to-${istDay(1)}.csv"`,
      );
      const lines = answer.text.split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe('date (IST),type,amount,status,reference,balance after');
      expect(lines.slice(1, -1).map((line) => line.slice(20))).toEqual([
        `deposit,3000,completed,${funded},3000`,
        `deposit,1000,pending,${pending},3000`,
        `bet_placed,-1000,completed,BET-${bet.body.id},2000`,
      ]);
      expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},/);

      expect((await statement(api.admin, `${range}&userId=${player.id}`)).text).toBe(answer.text);
      const other = await registerPlayer(api.server);
      expect(await statement(other, `${range}&userId=${player.id}`)).toMatchObject({
        status: 403,
        body: { message: 'You can only view your own transactions' },
      });
      expect((await statement(other, range)).text).toBe('date (IST),type,amount,status,reference,balance after\r\n');
    });

    it.each([
      ['from=2026-11-22&to=2026-11-21', protectionMessages.dateOrder],
      ['from=2026-11-22', protectionMessages.dateInvalid],
      ['from=22-11-2026&to=2026-11-22', protectionMessages.dateInvalid],
      ['from=2026-02-30&to=2026-03-01', protectionMessages.dateInvalid],
    ])('refuses %s with 400', async (query, message) => {
      const player = await registerPlayer(api.server);
      expect(await statement(player, query)).toMatchObject({ status: 400, body: { message } });
    });

    it('streams a long statement chunk by chunk with the balance carried across', async () => {
      const player = await registerPlayer(api.server);
      await fund(api.server, player, 1000);
      // volume for the streaming path: 2,500 completed adjustments of ₹1, posted in one call of the posting
      // function so the books reconcile
      await api.db`
        select count(*) from app.post_transfers(array(
          select app.ledger_row(${player.id}, 'admin_adjustment', 1, p_notes => 'statement volume')
          from generate_series(1, 2500)))`;
      const answer = await statement(player, `from=${istDay(-1)}&to=${istDay(1)}`);
      const rows = answer.text
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(','));
      expect(rows).toHaveLength(2501);
      expect(rows.map((row) => Number(row[5]))).toEqual(Array.from({ length: 2501 }, (_, index) => 1000 + index));
      expect(Number(rows.at(-1)![5])).toBe(await balance(api.db, player.id));
    });
  });
});

describe('attempts at misuse', () => {
  const api = apiSuite({ admin: true, reconciled: true });

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
    const rows = await transactionCount(api.db, player.id);
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
    expect(await transactionCount(api.db, player.id)).toBe(rows + 1);
    expect(await balance(api.db, player.id)).toBe(1000);
  });
});

describe('lists: keyset pages, search, filters and counts', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it("walks a player's ledger exactly once, newest first, while rows are added meanwhile", async () => {
    const player = await registerPlayer(api.server);
    const existing = await pendingDeposits(api.db, player.id, 23);
    const added: number[] = [];
    const pages = await walk(player.client, '/api/wallet/transactions?limit=5', async () =>
      added.push(...(await pendingDeposits(api.db, player.id, 2))),
    );
    expect(pages.map((ids) => ids.length)).toEqual([5, 5, 5, 5, 3]);
    const walked = pages.flat();
    expect(walked).toEqual([...existing].sort((a, b) => b - a));
    expect(added.filter((id) => walked.includes(id))).toEqual([]);
    // a fresh walk sees everything, each once
    const again = (await walk(player.client, '/api/wallet/transactions?limit=200')).flat();
    expect(again).toHaveLength(existing.length + added.length);
    expect(new Set(again).size).toBe(again.length);
  });

  it("keeps the filters and the limit in the next page's link; the last page has none", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 1000);
    await pendingDeposits(api.db, player.id, 3);
    const first = await player.client.get('/api/wallet/transactions?type=deposit&status=pending&limit=2');
    expect(first.body.map((t: { status: string }) => t.status)).toEqual(['pending', 'pending']);
    const next = nextPageUrl(first.headers.get('link'))!;
    expect(next).toMatch(/^\/api\/wallet\/transactions\?type=deposit&status=pending&limit=2&cursor=[A-Za-z0-9_-]+$/);
    const last = await player.client.get(next);
    expect(last.body).toHaveLength(1);
    expect(last.headers.get('link')).toBeNull();
    const completed = await player.client.get('/api/wallet/transactions?type=deposit&status=completed');
    expect(completed.body.map((t: { amount: number }) => t.amount)).toEqual([1000]);
  });

  it.each([['0'], ['201'], ['abc'], ['1.5'], ['-3'], ['']])(
    'refuses limit=%s with a 400 and says why',
    async (limit) => {
      const player = await registerPlayer(api.server);
      for (const path of ['/api/wallet/transactions', '/api/bets']) {
        const answer = await player.client.get(`${path}?limit=${limit}`);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: INVALID_LIMIT });
      }
      const adminAnswer = await api.admin.client.get(`/api/admin/users?limit=${limit}`);
      expect(adminAnswer.body).toEqual({ message: INVALID_LIMIT });
    },
  );

  it('takes 1 and 200 rows per page, 50 by default', async () => {
    const player = await registerPlayer(api.server);
    await pendingDeposits(api.db, player.id, 205);
    expect((await player.client.get('/api/wallet/transactions?limit=1')).body).toHaveLength(1);
    expect((await player.client.get('/api/wallet/transactions?limit=200')).body).toHaveLength(200);
    expect((await player.client.get('/api/wallet/transactions')).body).toHaveLength(50);
  });

  it('refuses a malformed cursor with a 400, after the session check', async () => {
    const player = await registerPlayer(api.server);
    for (const cursor of ['%25%25', 'bm90LWFuLWlk', encodeCursor(0).slice(0, 1) + '!', 'MA']) {
      const answer = await player.client.get(`/api/wallet/transactions?cursor=${cursor}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: INVALID_CURSOR });
    }
    expect((await new Client(api.server.url).get('/api/bets?cursor=x%25')).status).toBe(401);
    expect((await player.client.get('/api/admin/users?cursor=x%25')).status).toBe(403);
  });

  it("a player's cursor shows another player only their own rows", async () => {
    const [alice, bob] = await Promise.all([registerPlayer(api.server), registerPlayer(api.server)]);
    const bobs = await pendingDeposits(api.db, bob.id, 3);
    const alices = await pendingDeposits(api.db, alice.id, 6);
    const first = await alice.client.get('/api/wallet/transactions?limit=2');
    const next = nextPageUrl(first.headers.get('link'))!;
    const asBob = await bob.client.get(next);
    expect(asBob.status).toBe(200);
    expect(asBob.body.map((t: { id: number }) => t.id)).toEqual([...bobs].reverse().slice(0, 2));
    expect(asBob.body.every((t: { user_id: number }) => t.user_id === bob.id)).toBe(true);
    // nor may a player ask for Alice's list by id, with or without her cursor
    expect(
      (await bob.client.get(`/api/wallet/transactions?userId=${alice.id}&cursor=${encodeCursor(alices[5])}`)).status,
    ).toBe(403);
    // an admin pages through Alice's ledger with ?userId=
    const adminPages = await walk(api.admin.client, `/api/wallet/transactions?userId=${alice.id}&limit=4`);
    expect(adminPages.flat()).toEqual([...alices].reverse());
  });
});
