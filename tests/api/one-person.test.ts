/**
 * One person, one account, over HTTP: each attempt of a person who wants a second account, with the answer
 * it gets and what it left. The rules' boundaries are pgTAP's (supabase/tests/10b-one-person.test.sql); races
 * are in tests/db/concurrency.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  apiSuite,
  balance,
  Client,
  createMatch,
  depositReference,
  fund,
  newBankAccount,
  newPhone,
  registerPlayer,
  settled,
  unique,
  type Player,
} from '../support/api.ts';

describe('one person, one account', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  const register = (phone: string | null) => {
    const username = unique('one');
    return new Client(api.server.url).post('/api/register', {
      name: 'Same Person',
      username,
      email: `${username}@example.com`,
      password: 'secret-123',
      phone,
    });
  };

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

  it('a phone number opens one account: a second registration or a change to it is refused', async () => {
    const phone = newPhone();
    const first = await register(`+91 ${phone.slice(0, 5)} ${phone.slice(5)}`);
    expect(first.status).toBe(201);
    const second = await register(`0${phone}`);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ message: 'This phone number is already in use' });

    const other = await registerPlayer(api.server);
    const change = await other.client.patch('/api/user', { phone });
    expect(change.status).toBe(409);
    expect(change.body).toEqual({ message: 'This phone number is already in use' });
    expect((await other.client.get('/api/user')).body.phone).toBeNull();

    const fresh = newPhone();
    const own = await other.client.patch('/api/user', { phone: fresh, name: 'Other Name' });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: other.id, phone: fresh, name: 'Other Name' });
    const removed = await other.client.patch('/api/user', { phone: null });
    expect(removed.body.phone).toBeNull();
    expect((await register(fresh)).status, 'a removed number is free again').toBe(201);
    const invalid = await other.client.patch('/api/user', { name: 'x' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: 'Name must be at least 2 characters' });
  });

  const bet = (player: Player, matchId: number, teamId = 1) =>
    player.client.post('/api/bets', { match_id: matchId, team_id: teamId, amount: 1000 });
  const deposit = (player: Player) =>
    player.client.post('/api/wallet/deposit', { amount: 1000, paymentMethod: 'upi', reference: depositReference() });
  const signIn = async (player: Player) => {
    const answer = await player.client.post('/api/login', { username: player.username, password: player.password });
    expect(answer.status).toBe(200);
  };
  /** Two accounts that shared a phone number before the rule (a kept duplicate), as the migration left them. */
  async function sharingAPhone() {
    const phone = newPhone();
    const first = await registerPlayer(api.server, { phone });
    const second = await registerPlayer(api.server);
    await api.db`update public.users set phone = ${`0${phone}`}, phone_kept_duplicate = true where id = ${second.id}`;
    return [first, second] as const;
  }

  it("a self-exclusion binds the person's other account from the moment it starts, and no admin lifts it", async () => {
    const [excluded, other] = await sharingAPhone();
    await fund(api.server, other, 5000);
    const match = await createMatch(api.admin, { live: true });
    const pending = await deposit(other);
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
    const otherDeposit = await deposit(other);
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

  it('admins see the accounts linked to a user by bank account, phone number or device, each with why', async () => {
    const [player, samePhone] = await sharingAPhone();
    const account = newBankAccount('Linked Player');
    expect((await player.client.post('/api/bank-accounts', account)).status).toBe(201);
    const sameBank = await registerPlayer(api.server);
    await api.db`
      insert into public.bank_accounts (user_id, account_holder, account_number, ifsc_code, bank_name, kept_duplicate)
      values (${sameBank.id}, 'Linked Player', ${account.account_number}, ${account.ifsc_code}, 'HDFC Bank', true)`;
    const sameDevice = await registerPlayer(api.server, {}, { sameBrowserAs: player });
    const stranger = await registerPlayer(api.server);

    const linked = await api.admin.client.get(`/api/admin/users/${player.id}/linked`);
    expect(linked.status).toBe(200);
    const [{ phone }] = await api.db`select phone from public.users where id = ${player.id}`;
    expect(linked.body).toEqual(
      [
        { account: samePhone, links: [{ reason: 'phone', detail: phone }] },
        {
          account: sameBank,
          links: [{ reason: 'bank_account', detail: `HDFC0001234 ending ${account.account_number.slice(-4)}` }],
        },
        {
          account: sameDevice,
          links: [{ reason: 'device', detail: expect.stringMatching(/^last signed in with it on .* IST$/) }],
        },
      ].map(({ account: { id, username }, links }) => ({
        id,
        username,
        name: `Player ${username}`,
        status: 'active',
        links,
        exclusion: null,
      })),
    );
    expect(linked.body.map((row: { id: number }) => row.id)).not.toContain(stranger.id);

    await api.db`update app.user_devices set last_sign_in_at = now() - interval '91 days' where user_id = ${sameDevice.id}`;
    const later = await api.admin.client.get(`/api/admin/users/${player.id}/linked`);
    expect(
      later.body.map((row: { id: number }) => row.id),
      'a device links for 90 days',
    ).not.toContain(sameDevice.id);
    expect((await player.client.get(`/api/admin/users/${player.id}/linked`)).status).toBe(403);
    expect((await api.admin.client.get('/api/admin/users/99999999/linked')).status).toBe(404);
  });

  it("an admin applies a player's running exclusion to a second account opened in the same browser (audited)", async () => {
    const excluded = await registerPlayer(api.server);
    expect((await excluded.client.post('/api/account/timeout', { days: 7 })).status).toBe(201);
    // the excluded player opens a new account without a phone number, in their own browser
    const second = await registerPlayer(api.server, {}, { sameBrowserAs: excluded });
    await fund(api.server, second, 2000);
    const match = await createMatch(api.admin, { live: true });
    expect((await bet(second, match.id)).status, 'a device alone binds nothing').toBe(201);

    const linked = (await api.admin.client.get(`/api/admin/users/${second.id}/linked`)).body;
    expect(linked).toEqual([
      expect.objectContaining({
        id: excluded.id,
        exclusion: { kind: 'timeout', ends_at: expect.any(String), binds_this_user: false },
      }),
    ]);
    const applied = await api.admin.client.post(`/api/admin/users/${second.id}/linked/${excluded.id}/exclusion`);
    expect(applied.status).toBe(201);
    expect(applied.body.timeout_until).toBe(linked[0].exclusion.ends_at);
    await signIn(second);
    const refused = await bet(second, match.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual((await bet(excluded, match.id)).body);
    const [audit] = await api.db`
      select admin_id, after from public.audit_log
      where action = 'protection.apply_linked_exclusion' and target_id = ${second.id}`;
    expect(audit).toEqual({
      admin_id: api.admin.id,
      after: { from_user_id: excluded.id, kind: 'timeout', ends_at: expect.any(String), linked_by: 'device' },
    });
    const again = await api.admin.client.post(`/api/admin/users/${second.id}/linked/${excluded.id}/exclusion`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'This account is already bound by that exclusion' });
    expect((await api.admin.client.get(`/api/admin/users/${second.id}/linked`)).body[0].exclusion.binds_this_user).toBe(
      true,
    );

    const stranger = await registerPlayer(api.server);
    const unlinked = await api.admin.client.post(`/api/admin/users/${stranger.id}/linked/${excluded.id}/exclusion`);
    expect(unlinked.status).toBe(409);
    expect(unlinked.body).toEqual({ message: 'These accounts are not linked by a device' });
    const byPlayer = await second.client.post(`/api/admin/users/${second.id}/linked/${excluded.id}/exclusion`);
    expect(byPlayer.status).toBe(403);
  });

  it('a referral ring earns nothing: two accounts a referrer opens and hedges on one match pay no bonus', async () => {
    const referrer = await registerPlayer(api.server);
    const [{ referral_code: code }] = await api.db`select referral_code from public.users where id = ${referrer.id}`;
    // the referrer opens both referred accounts on their own phone, with no phone number
    const [backsOne, backsTwo] = [
      await registerPlayer(api.server, { referral_code: code }, { sameBrowserAs: referrer }),
      await registerPlayer(api.server, { referral_code: code }, { sameBrowserAs: referrer }),
    ];
    await fund(api.server, backsOne, 1000);
    await fund(api.server, backsTwo, 1000);
    const match = await createMatch(api.admin, { live: true });
    expect((await bet(backsOne, match.id, 1)).status).toBe(201);
    expect((await bet(backsTwo, match.id, 2)).status).toBe(201);
    await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
    await settled(api.db, match.id);

    expect(await balance(api.db, referrer.id), 'no referral bonus for either account').toBe(0);
    expect(
      await api.db`select count(*)::int as n from public.transactions where user_id = ${referrer.id} and type = 'referral_bonus'`,
    ).toEqual([{ n: 0 }]);
    expect(
      await api.db`select linked_at is not null as linked from app.referrals where referrer_id = ${referrer.id} order by user_id`,
    ).toEqual([{ linked: true }, { linked: true }]);

    // a friend on a phone of their own whose losses reach the bonus earns the referrer a bonus, once
    const friend = await registerPlayer(api.server, { referral_code: code });
    await fund(api.server, friend, 1000);
    const next = await createMatch(api.admin, { live: true });
    expect((await bet(friend, next.id, 1)).status).toBe(201);
    await api.admin.client.patch(`/api/admin/matches/${next.id}/declare-winner`, { winning_team_id: 2 });
    await settled(api.db, next.id);
    expect(await balance(api.db, referrer.id)).toBe(100);
  });
});
