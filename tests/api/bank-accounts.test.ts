/**
 * A player's bank accounts, /api/bank-accounts (edge-functions/api/routes/bank-accounts.ts): added for the
 * caller only, validated, and one person's: a second account cannot add the first one's (pgTAP:
 * supabase/tests/10b-one-person).
 */
import { describe, expect, it } from 'vitest';
import { apiSuite, registerPlayer, newBankAccount, ownAccount } from '../support/api.ts';

describe('bank accounts', () => {
  const api = apiSuite({ reconciled: true });

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
});

describe('one person, one account', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  it("a second account cannot add the first one's bank account, however it is written", async () => {
    const first = await registerPlayer(api.server);
    const second = await registerPlayer(api.server);
    const account = newBankAccount('Same Person');
    expect((await first.client.post('/api/bank-accounts', account)).status).toBe(201);
    const number = account.account_number;
    const again = await second.client.post('/api/bank-accounts', {
      ...account,
      account_number: `00${number.slice(0, 4)} ${number.slice(4, 8)}-${number.slice(8)}`,
      ifsc_code: account.ifsc_code.toLowerCase(),
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'This bank account is already in use' });
    expect((await second.client.get('/api/bank-accounts')).body).toEqual([]);
    const own = await first.client.post('/api/bank-accounts', { ...account, account_number: `0${number}` });
    expect(own.status).toBe(409);
    expect(own.body).toEqual({ message: 'Bank account already added' });
  });
});
