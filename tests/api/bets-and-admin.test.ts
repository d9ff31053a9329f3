import { describe, expect, it } from 'vitest';
import {
  apiSuite,
  balance,
  createMatch,
  depositReference,
  fund,
  registerPlayer,
  settled,
  sendWebhook,
  unique,
} from '../support/api.ts';

describe('bets, match administration and the back office', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it('journey: register → deposit → webhook → bet → admin declares → balance 10000 − 1000 + 3000', async () => {
    const player = await registerPlayer(api.server);
    const reference = depositReference();
    const deposit = await player.client.post('/api/wallet/deposit', {
      amount: 10000,
      paymentMethod: 'upi',
      reference,
      status: 'pending',
    });
    expect(deposit.status).toBe(201);
    expect(
      (await sendWebhook(api.server, { reference, amount: 10000, status: 'success', gateway_txn_id: unique('gw') }))
        .status,
    ).toBe(200);
    expect((await player.client.get('/api/user')).body.wallet_balance).toBe(10000);

    const match = await createMatch(api.admin, { live: true, team1: 1, team2: 2 });
    const bet = await player.client.post('/api/bets', {
      match_id: match.id,
      team_id: 1,
      amount: 1000,
      odds: 3,
      potential_win: 3000,
    });
    expect(bet.status).toBe(201);
    expect(bet.body).toMatchObject({
      amount: 1000,
      odds: 3,
      potential_win: 3000,
      status: 'placed',
      team: { short_name: 'MI' },
    });
    expect(bet.body.match).toMatchObject({
      id: match.id,
      status: 'live',
      team1: { short_name: 'MI' },
      team2: { short_name: 'CSK' },
    });
    expect(await balance(api.db, player.id)).toBe(9000);

    const declared = await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, {
      winning_team_id: 1,
      result: 'ignored',
    });
    expect(declared.status).toBe(200);
    expect(declared.body).toMatchObject({
      status: 'completed',
      winning_team_id: 1,
      match_result: 'Mumbai Indians won the match',
      settlement: { state: 'settling', settled: 0, total: 1 },
    });
    await settled(api.db, match.id);
    expect(await balance(api.db, player.id)).toBe(10000 - 1000 + 3000);
    expect((await player.client.get(`/api/matches/${match.id}`)).body.settlement).toEqual({
      state: 'settled',
      settled: 1,
      total: 1,
    });
    expect((await player.client.get('/api/user')).body.wallet_balance).toBe(12000);
    const bets = await player.client.get('/api/bets');
    expect(bets.body[0]).toMatchObject({ id: bet.body.id, status: 'won' });

    const again = await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Match is already completed' });
    expect(await balance(api.db, player.id)).toBe(12000);
  });

  it("lists only the caller's own bets and transactions, also for an admin", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const match = await createMatch(api.admin);
    expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 })).status).toBe(201);
    expect((await player.client.get('/api/bets')).body).toHaveLength(1);
    // the admin has neither bets nor transactions: RLS lets them read everyone's, the API must not list them
    expect((await api.admin.client.get('/api/bets')).body).toEqual([]);
    expect((await api.admin.client.get('/api/wallet/transactions')).body).toEqual([]);
  });

  it('refuses tampered odds or potential win (409) and never stores client values', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const match = await createMatch(api.admin);
    for (const tamper of [{ odds: 10 }, { potential_win: 999999 }]) {
      const answer = await player.client.post('/api/bets', { match_id: match.id, team_id: 2, amount: 1000, ...tamper });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ message: 'Odds have changed' });
    }
    const ok = await player.client.post('/api/bets', { match_id: match.id, team_id: 2, amount: 2000 });
    expect(ok.status).toBe(201);
    const [row] = await api.db`select odds::text, potential_win from public.bets where id = ${ok.body.id}`;
    expect(row).toEqual({ odds: '3.00', potential_win: 6000 });
    expect(await balance(api.db, player.id)).toBe(3000);
  });

  it('refuses bets: minimum, insufficient balance, wrong team, closed match, suspended player', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 1500);
    const match = await createMatch(api.admin);
    const cases: [unknown, number, string][] = [
      [
        { match_id: match.id, team_id: 1, amount: 999 },
        400,
        'Invalid amount: Please enter an amount of at least ₹1000.',
      ],
      [
        { match_id: match.id, team_id: 1, amount: 2000 },
        409,
        "Insufficient balance: You don't have enough funds in your wallet. Please recharge your wallet.",
      ],
      [{ match_id: match.id, team_id: 5, amount: 1000 }, 400, 'Selected team is not playing in this match'],
      [{ match_id: 99999999, team_id: 1, amount: 1000 }, 404, 'Match not found'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await player.client.post('/api/bets', body);
      expect([answer.status, answer.body]).toEqual([status, { message }]);
    }
    const done = await createMatch(api.admin, { live: true });
    await api.admin.client.patch(`/api/admin/matches/${done.id}/abandon`);
    const closed = await player.client.post('/api/bets', { match_id: done.id, team_id: 1, amount: 1000 });
    expect(closed.status).toBe(409);
    await api.admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'suspended' });
    // suspending ended the player's sessions; a suspended player may sign in and look, not bet
    expect(
      (await player.client.post('/api/login', { username: player.username, password: player.password })).status,
    ).toBe(200);
    const suspended = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });
    expect(suspended.status).toBe(403);
    expect(await balance(api.db, player.id)).toBe(1500);
  });

  it('places one bet for one Idempotency-Key; the same key with another body is a 409', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const match = await createMatch(api.admin);
    const key = unique('bet');
    const body = { match_id: match.id, team_id: 1, amount: 1000 };
    const answers = await Promise.all(
      [1, 2, 3].map(() => player.client.post('/api/bets', body, { 'idempotency-key': key })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    const other = await player.client.post('/api/bets', { ...body, amount: 2000 }, { 'idempotency-key': key });
    expect(other.status).toBe(409);
    expect(await balance(api.db, player.id)).toBe(4000);
    const [{ count }] = await api.db`select count(*)::int as count from public.bets where user_id = ${player.id}`;
    expect(count).toBe(1);
  });

  it('abandon refunds the stakes; update-live changes scores; match lists filter by status', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const match = await createMatch(api.admin, { live: true, team1: 3, team2: 4 });
    await player.client.post('/api/bets', { match_id: match.id, team_id: 4, amount: 2000 });
    const live = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
      team1_score: '145/3',
      team2_score: '0/0',
      current_innings: 1,
      current_over: 15.3,
    });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ team1_score: '145/3', current_innings: 1, current_over: 15.3 });
    const bad = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, { current_innings: 3 });
    expect([bad.status, bad.body]).toEqual([400, { message: 'Innings must be 1 or 2' }]);

    const liveList = await player.client.get('/api/matches?status=live');
    expect(liveList.body.some((m: { id: number }) => m.id === match.id)).toBe(true);
    expect(liveList.body.every((m: { status: string }) => m.status === 'live')).toBe(true);
    expect((await player.client.get('/api/matches?status=bogus')).status).toBe(400);

    const abandoned = await api.admin.client.patch(`/api/admin/matches/${match.id}/abandon`);
    expect(abandoned.body).toMatchObject({
      status: 'completed',
      match_result: 'Match abandoned',
      additionalDetails: { status: 'Match abandoned' },
    });
    await settled(api.db, match.id);
    expect(await balance(api.db, player.id)).toBe(2000);
    const bets = await api.admin.client.get(`/api/admin/bets/match/${match.id}`);
    expect(bets.body).toHaveLength(1);
    expect(bets.body[0].status).toBe('cancelled');
  });

  it('creates matches, refuses invalid ones with their messages, and reads them back', async () => {
    const start = new Date(Date.now() + 86_400_000).toISOString();
    const created = await api.admin.client.post('/api/admin/matches', {
      team1_id: 5,
      team2_id: 6,
      start_time: start,
      match_type: 'odi',
      status: 'live',
      venue: 'Eden Gardens',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'upcoming',
      match_type: 'odi',
      venue: 'Eden Gardens',
      team1: { name: 'Delhi Capitals' },
      team2: { short_name: 'PBKS' },
    });
    expect((await api.admin.client.get(`/api/admin/matches/${created.body.id}`)).body.id).toBe(created.body.id);
    expect((await api.admin.client.get(`/api/matches/${created.body.id}`)).body.id).toBe(created.body.id);
    expect((await api.admin.client.get('/api/matches/99999999')).body).toEqual({ message: 'Match not found' });
    const cases: [unknown, string][] = [
      [{ team2_id: 6, start_time: start }, 'Team 1 is required'],
      [{ team1_id: 5, start_time: start }, 'Team 2 is required'],
      [{ team1_id: 5, team2_id: 6 }, 'A match date is required.'],
      [
        { team1_id: 5, team2_id: 5, start_time: start },
        'Invalid teams selection: Team 1 and Team 2 cannot be the same team.',
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await api.admin.client.post('/api/admin/matches', body);
      expect([answer.status, answer.body]).toEqual([400, { message }]);
    }
    const started = await api.admin.client.patch(`/api/admin/matches/${created.body.id}/start`);
    expect(started.body).toMatchObject({ status: 'live', current_innings: 1, current_over: 0 });
    expect((await api.admin.client.patch(`/api/admin/matches/${created.body.id}/start`)).status).toBe(409);
    const noTeam = await api.admin.client.patch(`/api/admin/matches/${created.body.id}/declare-winner`, {});
    expect([noTeam.status, noTeam.body]).toEqual([400, { message: 'Please select a winning team' }]);
    // the ten seeded teams (other test files may add teams of their own to the same database meanwhile)
    const teams = (await api.admin.client.get('/api/admin/teams')).body as { id: number }[];
    expect(teams.map((team) => team.id)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
  });

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

  it("approves and rejects pending transactions; lists users, a user's data and the dashboard", async () => {
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
    expect((await api.admin.client.get(`/api/wallet/transactions?userId=${player.id}`)).body).toHaveLength(2);
    expect((await api.admin.client.get('/api/admin/users/99999999')).body).toEqual({ message: 'User not found' });

    const stats = await api.admin.client.get('/api/admin/dashboard/stats');
    expect(stats.status).toBe(200);
    for (const key of [
      'totalUsers',
      'activeUsers',
      'totalMatches',
      'liveMatches',
      'upcomingMatches',
      'completedMatches',
      'totalBets',
      'totalTransactionVolume',
      'pendingDeposits',
      'pendingWithdrawals',
      'recentMatches',
      'recentTransactions',
    ]) {
      expect(stats.body).toHaveProperty(key);
    }
    const status = await api.admin.client.patch(`/api/admin/users/${player.id}/status`, { status: 'frozen' });
    expect([status.status, status.body]).toEqual([400, { message: 'Invalid status' }]);
    const self = await api.admin.client.patch(`/api/admin/users/${api.admin.id}/status`, { status: 'suspended' });
    expect(self.status).toBe(403);
  });
});
