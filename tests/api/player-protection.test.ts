/**
 * Player protection over HTTP: deposit limits (409 naming what is left, raises pending for 24 hours, two
 * concurrent deposits that together would pass a limit), time-out and self-exclusion (403 for bets and
 * deposits, withdrawals still open), an admin who can read but never change or lift them, and CSV statements.
 * The rules and their boundaries are pgTAP-tested (supabase/tests/50a-player-protection.test.sql); this is the
 * HTTP contract.
 */
import { describe, expect, it } from 'vitest';
import { protectionMessages } from '../../src/domain/protection.ts';
import {
  apiSuite,
  balance,
  createMatch,
  depositReference,
  fund,
  newBankAccount,
  registerPlayer,
  settled,
  type Player,
} from '../support/api.ts';

const HOUR = 3_600_000;
const deposit = (player: Player, amount: number) =>
  player.client.post('/api/wallet/deposit', { amount, paymentMethod: 'upi', reference: depositReference() });

/** A calendar day in India Standard Time, as YYYY-MM-DD, `days` from today. */
function istDay(days = 0): string {
  return new Date(Date.now() + days * 24 * HOUR).toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });
}

describe('player protection', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('a new player has no limits and no exclusion', async () => {
    const player = await registerPlayer(api.server);
    const limits = await player.client.get('/api/account/limits');
    expect(limits.status).toBe(200);
    expect(limits.body).toEqual({
      deposit_limits: { daily: null, weekly: null, monthly: null },
      deposit_remaining: { daily: null, weekly: null, monthly: null },
      pending_changes: [],
      timeout_until: null,
      self_excluded_until: null,
      limit_prompt_due: true,
    });
  });

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

  it.each([
    [{ period: 'yearly', amount: 1000 }, protectionMessages.periodInvalid],
    [{ period: 'daily', amount: 499 }, protectionMessages.limitRange],
    [{ period: 'daily' }, protectionMessages.limitRange],
  ])('refuses the limit %j with 400', async (body, message) => {
    const player = await registerPlayer(api.server);
    expect(await player.client.put('/api/account/limits', body)).toMatchObject({ status: 400, body: { message } });
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

  it('during a time-out the player cannot bet or deposit but can look and withdraw', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const match = await createMatch(api.admin, { live: true });
    expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 })).status).toBe(201);
    const account = await player.client.post('/api/bank-accounts', {
      ...newBankAccount('Timeout Player'),
    });

    const timeout = await player.client.post('/api/account/timeout', { days: 7 });
    expect(timeout.status).toBe(201);
    const until = Date.parse(timeout.body.timeout_until);
    expect(Math.abs(until - (Date.now() + 7 * 24 * HOUR))).toBeLessThan(60_000);

    const bet = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });
    expect(bet.status).toBe(403);
    expect(bet.body.message).toMatch(
      /^Time-out: You cannot bet or deposit until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m IST\.$/,
    );
    expect(await deposit(player, 1000)).toMatchObject({ status: 403, body: bet.body });
    expect(
      (await player.client.post('/api/wallet/withdraw', { amount: 500, bankAccountId: account.body.id })).status,
    ).toBe(201);
    expect((await player.client.get('/api/user')).status).toBe(200);
    expect((await player.client.get('/api/wallet/transactions')).body).toHaveLength(3);

    // the bet placed before stands and is paid
    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
    await settled(api.db, match.id);
    expect(await balance(api.db, player.id)).toBe(5000 - 1000 + 3000);

    const shorter = await player.client.post('/api/account/timeout', { days: 1 });
    expect(shorter.status).toBe(409);
    expect(shorter.body.message).toMatch(/^Already excluded: Your time-out runs until .+ IST\.$/);
    expect((await player.client.post('/api/account/timeout', { days: 2 })).body).toEqual({
      message: protectionMessages.timeoutDays,
    });
  });

  it('an admin sees a self-exclusion but can neither change nor lift it', async () => {
    const player = await registerPlayer(api.server);
    const excluded = await player.client.post('/api/account/self-exclusion', { months: 6 });
    expect(excluded.status).toBe(201);
    const until = excluded.body.self_excluded_until;
    expect(until).not.toBeNull();

    const seen = await api.admin.client.get(`/api/account/limits?userId=${player.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.self_excluded_until).toBe(until);
    expect(await api.admin.client.get('/api/account/limits?userId=99999999')).toMatchObject({
      status: 404,
      body: { message: 'User not found' },
    });

    const refused = { status: 403, body: { message: protectionMessages.onlyThePlayer } };
    expect(
      await api.admin.client.put(`/api/account/limits?userId=${player.id}`, { period: 'daily', amount: null }),
    ).toMatchObject(refused);
    expect(await api.admin.client.post(`/api/account/timeout?userId=${player.id}`, { days: 1 })).toMatchObject(refused);
    expect(await api.admin.client.post(`/api/account/self-exclusion?userId=${player.id}`, { months: 6 })).toMatchObject(
      refused,
    );
    // nothing lifts a self-exclusion: the path has no DELETE
    expect((await api.admin.client.call('DELETE', '/api/account/self-exclusion')).status).toBe(405);
    expect((await api.admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'suspended' })).status).toBe(
      200,
    );
    expect((await api.admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'active' })).status).toBe(
      200,
    );
    // (each change of status ended the player's sessions)
    expect(
      (await player.client.post('/api/login', { username: player.username, password: player.password })).status,
    ).toBe(200);

    expect((await player.client.get('/api/account/limits')).body.self_excluded_until).toBe(until);
    const refusedDeposit = await deposit(player, 1000);
    expect(refusedDeposit.status).toBe(403);
    expect(refusedDeposit.body.message).toMatch(/^Self-exclusion: You cannot bet or deposit until .+ IST\.$/);
    const [{ count }] =
      await api.db`select count(*)::int as count from public.protection_changes where user_id in (${player.id}, ${api.admin.id})`;
    expect(count).toBe(1);

    const other = await registerPlayer(api.server);
    expect(await other.client.get(`/api/account/limits?userId=${player.id}`)).toMatchObject({
      status: 403,
      body: { message: 'You can only view your own limits' },
    });
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
