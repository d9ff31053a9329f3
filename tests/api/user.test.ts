/**
 * GET /api/user (edge-functions/api/routes/user.ts): the signed-in user, with what they may spend.
 */
import { describe, expect, it } from 'vitest';
import { apiSuite, Client, createAdmin, registerPlayer, fund, ownAccount } from '../support/api.ts';

describe('GET /api/user', () => {
  const api = apiSuite();

  it('answers GET /api/user with 401 Not authenticated when signed out', async () => {
    const answer = await new Client(api.server.url).get('/api/user');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: 'Not authenticated' });
  });
});

describe('what a player may spend', () => {
  const api = apiSuite({ reconciled: true });

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
});
