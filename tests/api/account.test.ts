/**
 * The player's own protection, /api/account (edge-functions/api/routes/account.ts), over HTTP: deposit limits,
 * time-out and self-exclusion (which binds the person's other accounts too; an admin sees them with ?userId= but can
 * neither change nor lift them), the reality-check interval (GET/PUT /api/account/reality-check), the play session
 * with the server's time and the net result of bets since it began (GET /api/account/play-session), and the prompt
 * before the first deposit (POST /api/account/limit-prompt), answered once. The rules and their boundaries are
 * pgTAP's (supabase/tests/50a-player-protection, 51a-reality-checks, 10b-one-person).
 */
import { describe, expect, it } from 'vitest';
import { protectionMessages } from '../../src/domain/protection.ts';
import {
  apiSuite,
  deposit,
  balance,
  createMatch,
  depositReference,
  fund,
  newBankAccount,
  registerPlayer,
  settled,
  type Player,
  Client,
  signIn,
  sharingAPhone,
} from '../support/api.ts';

const HOUR = 3_600_000;

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

  it.each([
    [{ period: 'yearly', amount: 1000 }, protectionMessages.periodInvalid],
    [{ period: 'daily', amount: 499 }, protectionMessages.limitRange],
    [{ period: 'daily' }, protectionMessages.limitRange],
  ])('refuses the limit %j with 400', async (body, message) => {
    const player = await registerPlayer(api.server);
    expect(await player.client.put('/api/account/limits', body)).toMatchObject({ status: 400, body: { message } });
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
});

describe('reality checks', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('a player reads and chooses the reality-check interval; every change is in their protection history', async () => {
    const player = await registerPlayer(api.server);
    expect(await player.client.get('/api/account/reality-check')).toMatchObject({
      status: 200,
      body: { interval_minutes: 60 },
    });
    expect(await player.client.put('/api/account/reality-check', { interval_minutes: 15 })).toMatchObject({
      status: 200,
      body: { interval_minutes: 15 },
    });
    expect(await player.client.put('/api/account/reality-check', { interval_minutes: null })).toMatchObject({
      status: 200,
      body: { interval_minutes: null },
    });
    expect((await player.client.get('/api/account/reality-check')).body).toEqual({ interval_minutes: null });
    const refused = await player.client.put('/api/account/reality-check', { interval_minutes: 45 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(protectionMessages.realityCheckMinutes);
    const history = await api.db`
      select interval_minutes from public.protection_changes
      where user_id = ${player.id} and kind = 'reality_check' order by id`;
    expect(history.map((row) => row.interval_minutes)).toEqual([15, null]);
  });

  it("the play session answers its start, the server's time and the net result of the bets since", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const before = Date.now();
    const fresh = await player.client.get('/api/account/play-session');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ interval_minutes: 60, staked: 0, won: 0, net: 0 });
    expect(Math.abs(Date.parse(fresh.body.now) - before)).toBeLessThan(5000);
    expect(Date.parse(fresh.body.started_at)).toBeLessThanOrEqual(Date.parse(fresh.body.now));

    const match = await createMatch(api.admin, { live: true });
    expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 2000 })).status).toBe(201);
    expect(
      (await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 })).status,
    ).toBe(200);
    await settled(api.db, match.id);
    const after = await player.client.get('/api/account/play-session');
    expect(after.body).toMatchObject({ started_at: fresh.body.started_at, staked: 2000, won: 6000, net: 4000 });
  });

  it('needs a signed-in player', async () => {
    const visitor = new Client(api.server.url);
    expect((await visitor.get('/api/account/play-session')).status).toBe(401);
    expect((await visitor.get('/api/account/reality-check')).status).toBe(401);
  });
});

describe('the deposit-limit prompt', () => {
  const api = apiSuite({ reconciled: true });

  it('is due before the first deposit; "Set limit" sets the limit and the prompt is answered once', async () => {
    const player = await registerPlayer(api.server);
    expect((await player.client.get('/api/account/limits')).body.limit_prompt_due).toBe(true);
    const answered = await player.client.post('/api/account/limit-prompt', {
      answer: 'set_limit',
      period: 'daily',
      amount: 2000,
    });
    expect(answered.status).toBe(201);
    expect(answered.body).toMatchObject({
      deposit_limits: { daily: 2000, weekly: null, monthly: null },
      limit_prompt_due: false,
    });
    const again = await player.client.post('/api/account/limit-prompt', { answer: 'not_now' });
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'You have already answered the deposit limit question' },
    });
    const over = await player.client.post('/api/wallet/deposit', {
      amount: 2500,
      paymentMethod: 'upi',
      reference: depositReference(),
    });
    expect(over.body).toEqual({ message: 'Deposit limit reached: Your daily limit is ₹2,000 and ₹2,000 is left.' });
  });

  it('"Not now" is recorded too, and a player who has deposited is not asked', async () => {
    const player = await registerPlayer(api.server);
    const answered = await player.client.post('/api/account/limit-prompt', { answer: 'not_now' });
    expect(answered).toMatchObject({ status: 201, body: { limit_prompt_due: false, deposit_limits: { daily: null } } });
    const [row] = await api.db`select kind, period, amount from public.protection_changes where user_id = ${player.id}`;
    expect(row).toEqual({ kind: 'limit_prompt', period: null, amount: null });

    const depositor = await registerPlayer(api.server);
    await fund(api.server, depositor, 1000);
    expect((await depositor.client.get('/api/account/limits')).body.limit_prompt_due).toBe(false);
  });

  it('refuses a limit without an amount', async () => {
    const player = await registerPlayer(api.server);
    const refused = await player.client.post('/api/account/limit-prompt', { answer: 'set_limit', period: 'daily' });
    expect(refused.status).toBe(400);
  });
});

describe('one person, one account', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  const bet = (player: Player, matchId: number, teamId = 1) =>
    player.client.post('/api/bets', { match_id: matchId, team_id: teamId, amount: 1000 });

  it("a self-exclusion binds the person's other account from the moment it starts, and no admin lifts it", async () => {
    const [excluded, other] = await sharingAPhone(api.server, api.db);
    await fund(api.server, other, 5000);
    const match = await createMatch(api.admin, { live: true });
    const pending = await deposit(other, 1000);
    expect(pending.status).toBe(201);

    const exclusion = await excluded.client.post('/api/account/self-exclusion', { months: 6 });
    expect(exclusion.status).toBe(201);
    const refusal = (await bet(excluded, match.id)).body;
    expect(refusal.message).toMatch(/^Self-exclusion: You cannot bet or deposit until .* IST\.$/);

    expect((await other.client.get('/api/user')).status, "the other account's sessions end").toBe(401);
    await signIn(other);
    const otherBet = await bet(other, match.id);
    expect(otherBet.status).toBe(403);
    expect(otherBet.body, 'the same 403 as on the excluded account').toEqual(refusal);
    const otherDeposit = await deposit(other, 1000);
    expect(otherDeposit.status).toBe(403);
    expect(otherDeposit.body).toEqual(refusal);
    const [failed] = await api.db`select status from public.transactions where id = ${pending.body.id}`;
    expect(failed.status, "its pending deposit is failed like the excluded account's").toBe('failed');
    expect(await balance(api.db, other.id)).toBe(5000);

    // nothing an admin can do lifts it: a status change leaves it, another player's protection is not theirs
    expect((await api.admin.client.patch(`/api/admin/users/${other.id}/status`, { status: 'active' })).status).toBe(
      200,
    );
    await signIn(other);
    expect((await bet(other, match.id)).status).toBe(403);
    const lift = await api.admin.client.post(`/api/account/timeout?userId=${other.id}`, { days: 1 });
    expect(lift.status).toBe(403);
    const limits = await api.admin.client.get(`/api/account/limits?userId=${other.id}`);
    const own = await excluded.client.get('/api/account/limits');
    expect(limits.body.self_excluded_until).toBe(own.body.self_excluded_until);
  });
});
