/**
 * The book cannot be beaten, over HTTP: each attempt of a player or an insider who reads the rules and plays
 * them, with the answer it gets and what it moved (balances, rows). The rules' boundaries are pgTAP's
 * (supabase/tests/60b-fair-book.test.sql, 60a-house-risk.test.sql); races are in tests/db/concurrency.test.ts.
 * Settings are global and other files run alongside: this file leaves every setting as it found it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiSuite,
  balance,
  Client,
  createAdmin,
  createMatch,
  fund,
  registerPlayer,
  settled,
  unique,
  type Player,
} from '../support/api.ts';

describe('the book cannot be beaten', () => {
  const api = apiSuite({ admin: true, reconciled: true });
  let secondAdmin: Player;
  beforeAll(async () => {
    secondAdmin = await createAdmin(api.server, api.db);
  });

  const bet = (player: Player, match_id: number, team_id: number, amount: number) =>
    player.client.post('/api/bets', { match_id, team_id, amount });

  it('a player who backs both teams of a match gets the second bet refused: no certain profit', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 20_000);
    const match = await createMatch(api.admin, { live: true });
    expect((await bet(player, match.id, 1, 5000)).status).toBe(201);
    const hedge = await bet(player, match.id, 2, 5000);
    expect(hedge.status).toBe(409);
    expect(hedge.body).toEqual({ message: 'You have already backed Mumbai Indians in this match' });
    expect(await balance(api.db, player.id)).toBe(15_000);
    expect((await player.client.get(`/api/matches/${match.id}/position`)).body).toEqual({ team_id: 1, staked: 5000 });

    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 2 });
    await settled(api.db, match.id);
    expect(await balance(api.db, player.id), 'the side backed lost: the stake is gone').toBe(15_000);
  });

  it('a live update that leaves out the over keeps it; correcting the over back does not reopen a closed market', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5_000);
    const match = await createMatch(api.admin, { live: true });
    const update = (body: Record<string, unknown>) =>
      api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, body);
    expect((await update({ current_innings: 2, current_over: 14.3 })).body.current_over).toBe(14.3);
    const scoreOnly = await update({ team1_score: '180/4' });
    expect(scoreOnly.status).toBe(200);
    expect(scoreOnly.body).toMatchObject({
      team1_score: '180/4',
      current_innings: 2,
      current_over: 14.3,
      betting: 'open',
    });
    expect((await update({ team2_score: '101/2', current_over: null })).body.current_over).toBe(14.3);

    expect((await update({ current_over: 15 })).body.betting).toBe('closed');
    const corrected = await update({ current_over: 14.4 });
    expect(corrected.body).toMatchObject({ current_over: 14.4, betting: 'closed' });
    const refused = await bet(player, match.id, 1, 1000);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'Betting is closed for this match' });

    const resumed = await api.admin.client.patch(`/api/admin/matches/${match.id}/resume`);
    expect(resumed.body.betting).toBe('open');
    expect((await bet(player, match.id, 1, 1000)).status).toBe(201);
    const audit = await api.admin.client.get('/api/admin/audit-log?limit=1000');
    expect(
      audit.body.filter(
        (row: { action: string; target_id: number }) =>
          row.action === 'match.resume_betting' && row.target_id === match.id,
      ),
    ).toHaveLength(1);
  });

  it('pauses bets on a match whose live score has gone quiet, until the next live update', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5_000);
    const match = await createMatch(api.admin, { live: true });
    // the score was last updated 181 seconds ago (the default pause is 180)
    await api.db`update public.matches set live_updated_at = now() - interval '181 seconds' where id = ${match.id}`;
    const read = await player.client.get(`/api/matches/${match.id}`, { 'cache-control': 'no-cache' });
    expect(Date.parse(read.body.betting_pauses_at)).toBeLessThan(Date.now());
    const refused = await bet(player, match.id, 1, 1000);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'Betting is paused until the live score is updated' });
    expect(await balance(api.db, player.id)).toBe(5_000);

    const updated = await api.admin.client.patch(`/api/admin/matches/${match.id}/update-live`, { team1_score: '12/0' });
    expect(Date.parse(updated.body.betting_pauses_at)).toBeGreaterThan(Date.now());
    expect((await bet(player, match.id, 1, 1000)).status).toBe(201);
  });

  it('pays a referrer only once the referred player has staked their first deposit on settled bets', async () => {
    const referrer = await registerPlayer(api.server);
    const [{ referral_code: code }] = await api.db`select referral_code from public.users where id = ${referrer.id}`;
    const referred = await registerPlayer(api.server, { referral_code: code });
    await fund(api.server, referred, 2_000);
    expect(await balance(api.db, referrer.id), 'a deposit alone pays nothing').toBe(0);

    const match = await createMatch(api.admin, { live: true });
    expect((await bet(referred, match.id, 1, 2000)).status).toBe(201);
    expect(await balance(api.db, referrer.id), 'nor a bet that is not settled').toBe(0);
    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 2 });
    await settled(api.db, match.id);
    expect(await balance(api.db, referrer.id)).toBe(100);
    const ledger = await referrer.client.get('/api/wallet/transactions');
    expect(ledger.body.map((row: { type: string; reference_id: string }) => [row.type, row.reference_id])).toEqual([
      ['referral_bonus', `REFERRAL-${referred.id}`],
    ]);
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

  it('a self-excluded player cannot come back under another name, phone number or bank account', async () => {
    const phone = `+91 9${String(Date.now()).slice(-9)}`;
    const player = await registerPlayer(api.server, { phone });
    await fund(api.server, player, 1_000);
    const account = {
      account_holder: 'Quitting Player',
      account_number: `7${String(Date.now()).slice(-11)}`,
      ifsc_code: 'SBIN0007777',
      bank_name: 'State Bank',
    };
    expect((await player.client.post('/api/bank-accounts', account)).status).toBe(201);
    const reference = `REF-${Date.now()}-EXCL`;
    expect(
      (
        await player.client.post('/api/wallet/deposit', {
          amount: 1000,
          paymentMethod: 'upi',
          reference,
          status: 'pending',
        })
      ).status,
    ).toBe(201);
    expect((await player.client.post('/api/account/self-exclusion', { months: 6 })).status).toBe(201);

    const [pending] = await api.db`select status from public.transactions where reference_id = ${reference}`;
    expect(pending.status, 'the pending deposit is failed when the exclusion starts').toBe('failed');

    const username = unique('back');
    const sameNumber = await new Client(api.server.url).post('/api/register', {
      name: 'Same Person',
      username,
      email: `${username}@example.com`,
      password: 'secret-123',
      phone: phone.replace('+91 ', '0'),
    });
    expect(sameNumber.status).toBe(403);
    expect(sameNumber.body).toEqual({ message: "We can't open an account with these details" });

    const other = await registerPlayer(api.server);
    const reused = await other.client.post('/api/bank-accounts', account);
    expect(reused.status).toBe(403);
    expect(reused.body).toEqual({ message: 'This bank account cannot be used' });
    expect((await other.client.get('/api/bank-accounts')).body).toEqual([]);
  });
});
