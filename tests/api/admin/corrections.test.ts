/**
 * A wrong result corrected, /api/admin/corrections (edge-functions/api/routes/admin/corrections.ts), over HTTP:
 * the proposal (202, a second administrator must approve), who may approve it (never its proposer, never a player
 * or a stranger), one correction at a time, a proposer withdrawing theirs, what the players then see (the match's
 * reason, their balances and ledger rows), and the players a reversal left below zero (no bets or withdrawals
 * until a deposit, listed for admins). Proposing is a route of the match: its refusals are in matches.test.ts.
 * The money's boundaries are pgTAP's (supabase/tests/36a-corrections.test.sql); races are in
 * tests/db/corrections.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BELOW_ZERO, SECOND_ADMIN_FOR_CORRECTION } from '@/domain/corrections.ts';
import {
  apiSuite,
  balance,
  Client,
  createAdmin,
  createMatch,
  fund,
  newBankAccount,
  registerPlayer,
  settled,
  unique,
  type Player,
} from '../../support/api.ts';

const REASON = 'Wrong team tapped in the confirmation dialog';

describe('a wrong result corrected', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let approver: Player;
  beforeAll(async () => {
    approver = await createAdmin(api.server, api.db);
  });

  const bet = async (player: Player, match: number, team: number, amount: number) => {
    const answer = await player.client.post('/api/bets', { match_id: match, team_id: team, amount });
    expect(answer.status, answer.text).toBe(201);
    return answer.body as { id: number; potential_win: number };
  };
  const propose = (admin: Player, match: number, body: Record<string, unknown>, headers?: Record<string, string>) =>
    admin.client.post(`/api/admin/matches/${match}/correct-result`, body, headers);
  const decide = (admin: Player | { client: Client }, id: number, decision: 'approve' | 'reject') =>
    admin.client.post(`/api/admin/corrections/${id}/${decision}`);

  /** A live match with a 1000 bet of `backer` on team 1 and of `opponent` on team 2, won by team 1 and settled. */
  async function settledMatch(backer: Player, opponent: Player) {
    const match = await createMatch(api.admin, { live: true });
    const won = await bet(backer, match.id, 1, 1000);
    await bet(opponent, match.id, 2, 1000);
    const declared = await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, {
      winning_team_id: 1,
    });
    expect(declared.status).toBe(200);
    await settled(api.db, match.id);
    return { match: match.id, payout: won.potential_win };
  }

  it('one admin proposes, another approves: the bets are settled anew and the players see it', async () => {
    const [backer, opponent] = [await registerPlayer(api.server), await registerPlayer(api.server)];
    await fund(api.server, backer, 5000);
    await fund(api.server, opponent, 5000);
    const { match, payout } = await settledMatch(backer, opponent);
    expect(await balance(api.db, backer.id)).toBe(4000 + payout);

    const key = unique('idem');
    const proposed = await propose(
      api.admin,
      match,
      { winning_team_id: 2, reason: REASON },
      { 'idempotency-key': key },
    );
    expect(proposed.status).toBe(202);
    expect(proposed.body).toMatchObject({
      message: SECOND_ADMIN_FOR_CORRECTION,
      correction: {
        match_id: match,
        winning_team_id: 2,
        status: 'pending',
        reason: REASON,
        previous_winning_team_id: 1,
      },
    });
    const correction = proposed.body.correction.id as number;
    const replayed = await propose(
      api.admin,
      match,
      { winning_team_id: 2, reason: REASON },
      { 'idempotency-key': key },
    );
    expect(replayed.status).toBe(202);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.correction.id).toBe(correction);

    const listed = await api.admin.client.get(`/api/admin/matches/${match}/corrections`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject([
      { id: correction, status: 'pending', proposed_by_username: api.admin.username },
    ]);

    // nobody else may approve: the proposer, a player, a stranger
    const own = await decide(api.admin, correction, 'approve');
    expect([own.status, own.body]).toEqual([403, { message: SECOND_ADMIN_FOR_CORRECTION }]);
    expect((await decide(backer, correction, 'approve')).status).toBe(403);
    expect((await decide({ client: new Client(api.server.url) }, correction, 'approve')).status).toBe(401);
    const second = await propose(approver, match, { abandon: true, reason: 'Rain stopped play in the end' });
    expect([second.status, second.body]).toEqual([409, { message: 'A correction of this match is already running' }]);
    expect(await balance(api.db, backer.id), 'nothing moved before the approval').toBe(4000 + payout);

    const approved = await decide(approver, correction, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: correction, status: 'applying', decided_by: approver.id });
    const again = await decide(approver, correction, 'approve');
    expect([again.status, again.body]).toEqual([409, { message: 'This correction has already been decided' }]);
    await settled(api.db, match);

    expect(await balance(api.db, backer.id), 'the payout taken back').toBe(4000);
    expect(await balance(api.db, opponent.id), 'the new winner paid').toBe(4000 + payout);
    const shown = await backer.client.get(`/api/matches/${match}`);
    expect(shown.body).toMatchObject({
      winning_team_id: 2,
      correction_reason: REASON,
      additionalDetails: { status: 'Chennai Super Kings won the match' },
    });
    const ledger = (await backer.client.get('/api/wallet/transactions')).body as { type: string; amount: number }[];
    expect(ledger.find((row) => row.type === 'settlement_reversal')).toMatchObject({ amount: -payout });
    const bets = (await opponent.client.get('/api/bets')).body as { match_id: number; status: string }[];
    expect(bets.find((row) => row.match_id === match)).toMatchObject({ status: 'won' });
    const [{ status }] = await api.db`select status from app.result_corrections where id = ${correction}`;
    expect(status).toBe('applied');
    const [{ audited }] = await api.db`
      select count(*)::int as audited from public.audit_log
      where target_type = 'match' and target_id = ${match} and action like 'match.correction_%'`;
    expect(audited).toBe(2);
  });

  it('answers 404 to a decision on a correction that does not exist', async () => {
    expect((await decide(approver, 99999999, 'approve')).status).toBe(404);
    expect((await decide(approver, 99999999, 'reject')).status).toBe(404);
  });

  it('a proposer may withdraw their proposal, and another may be made', async () => {
    const [backer, opponent] = [await registerPlayer(api.server), await registerPlayer(api.server)];
    await fund(api.server, backer, 2000);
    await fund(api.server, opponent, 2000);
    const { match } = await settledMatch(backer, opponent);
    const first = await propose(api.admin, match, { abandon: true, reason: REASON });
    const withdrawn = await decide(api.admin, first.body.correction.id, 'reject');
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ status: 'rejected', decided_by: api.admin.id });
    expect((await propose(approver, match, { abandon: true, reason: REASON })).status).toBe(202);
  });

  it('a reversal larger than the balance takes it below zero: no bets or withdrawals until a deposit', async () => {
    const [backer, opponent] = [await registerPlayer(api.server), await registerPlayer(api.server)];
    await fund(api.server, backer, 1000);
    await fund(api.server, opponent, 1000);
    const account = await backer.client.post('/api/bank-accounts', newBankAccount('Below Zero'));
    expect(account.status).toBe(201);
    const { match, payout } = await settledMatch(backer, opponent);
    const other = await createMatch(api.admin, { live: true });
    await bet(backer, other.id, 1, payout); // everything won, staked again

    const proposed = await propose(api.admin, match, { winning_team_id: 2, reason: REASON });
    expect((await decide(approver, proposed.body.correction.id, 'approve')).status).toBe(200);
    await settled(api.db, match);
    expect(await balance(api.db, backer.id)).toBe(-payout);

    const refusedBet = await backer.client.post('/api/bets', { match_id: other.id, team_id: 1, amount: 1000 });
    expect([refusedBet.status, refusedBet.body]).toEqual([409, { message: BELOW_ZERO }]);
    const refusedWithdrawal = await backer.client.post('/api/wallet/withdraw', {
      amount: 500,
      bankAccountId: account.body.id,
    });
    expect([refusedWithdrawal.status, refusedWithdrawal.body]).toEqual([409, { message: BELOW_ZERO }]);

    const listed = await api.admin.client.get('/api/admin/users?below_zero=true&limit=100');
    expect(listed.status).toBe(200);
    expect((listed.body as { id: number }[]).map((user) => user.id)).toContain(backer.id);
    expect((listed.body as { wallet_balance: number }[]).every((user) => user.wallet_balance < 0)).toBe(true);
    expect((await api.admin.client.get('/api/admin/users?below_zero=maybe')).body).toEqual({
      message: 'below_zero must be true or false',
    });

    await fund(api.server, backer, payout + 1000);
    expect(await balance(api.db, backer.id)).toBe(1000);
    const listedAfter = await api.admin.client.get('/api/admin/users?below_zero=true&limit=100');
    expect((listedAfter.body as { id: number }[]).map((user) => user.id)).not.toContain(backer.id);
    expect((await backer.client.post('/api/bets', { match_id: other.id, team_id: 1, amount: 1000 })).status).toBe(201);
  });
});
