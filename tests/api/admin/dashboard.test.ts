/**
 * The admin dashboard (edge-functions/api/routes/admin/dashboard.ts), over HTTP: its figures,
 * /api/admin/dashboard/stats, moving as the data does, and the audit log, /api/admin/audit-log, newest first
 * within its limit. Other files write to the same database meanwhile, so the figures are checked by deltas, as
 * pgTAP checks them (supabase/tests/40a-admin; 40b-lists compares them with direct counts).
 */
import { describe, expect, it } from 'vitest';
import { apiSuite, createMatch, fund, pendingDeposit, registerPlayer, settled } from '../../support/api.ts';

describe('the dashboard', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  const stats = async () => {
    const answer = await api.admin.client.get('/api/admin/dashboard/stats');
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('answers the figures, and they move with the data: users, matches, bets, money and pending deposits', async () => {
    const before = await stats();
    expect(Object.keys(before).sort()).toEqual(
      [
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
      ].sort(),
    );

    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    await pendingDeposit(player, 700);
    const decided = await createMatch(api.admin, { live: true });
    expect((await player.client.post('/api/bets', { match_id: decided.id, team_id: 1, amount: 1000 })).status).toBe(
      201,
    );
    await api.admin.client.patch(`/api/admin/matches/${decided.id}/declare-winner`, { winning_team_id: 2 });
    await settled(api.db, decided.id);
    await createMatch(api.admin, { live: true });
    const after = await stats();

    // no test deletes a user, match, bet or completed deposit, and every one is recent: these figures only grow,
    // each by at least this test's rows (other files' rows may come on top)
    expect(after.totalUsers).toBeGreaterThanOrEqual(before.totalUsers + 1);
    expect(after.totalMatches).toBeGreaterThanOrEqual(before.totalMatches + 2);
    expect(after.completedMatches).toBeGreaterThanOrEqual(before.completedMatches + 1);
    expect(after.totalBets).toBeGreaterThanOrEqual(before.totalBets + 1);
    expect(after.totalTransactionVolume).toBeGreaterThanOrEqual(before.totalTransactionVolume + 5000);
    // the others rise and fall with other files' matches and deposits: at least this test's live match and
    // pending deposit are counted
    expect(after.liveMatches).toBeGreaterThanOrEqual(1);
    expect(after.pendingDeposits).toBeGreaterThanOrEqual(1);
  });
});

describe('the audit log', () => {
  const api = apiSuite({ admin: true });

  it("answers admins' writes newest first, at most `limit` of them, and refuses a limit outside 1–1000", async () => {
    const match = await createMatch(api.admin, { live: true });
    const log = await api.admin.client.get('/api/admin/audit-log?limit=1000');
    expect(log.status).toBe(200);
    const ids = (log.body as { id: number }[]).map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(
      (log.body as { action: string; target_id: number; admin_id: number }[])
        .filter((entry) => entry.target_id === match.id && entry.action.startsWith('match.'))
        .map((entry) => [entry.action, entry.admin_id]),
    ).toEqual([
      ['match.start', api.admin.id],
      ['match.create', api.admin.id],
    ]);

    expect((await api.admin.client.get('/api/admin/audit-log?limit=1')).body).toHaveLength(1);
    for (const limit of ['0', '1001', 'x']) {
      const refused = await api.admin.client.get(`/api/admin/audit-log?limit=${limit}`);
      expect([refused.status, refused.body], limit).toEqual([400, { message: 'Invalid limit' }]);
    }
  });
});
