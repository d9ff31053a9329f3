/**
 * Every money write takes an Idempotency-Key (edge-functions/api/idempotency.ts): sent again with its key —
 * what a client does when it could not learn the outcome (a 504, a lost connection) — it answers the first
 * answer again and moves no money twice. The SPA sends a key with exactly the routes that declare one.
 */
import { describe, expect, it } from 'vitest';
import { MONEY_WRITES } from '../../src/lib/api-client.ts';
import {
  apiSuite,
  balance,
  Client,
  createAdmin,
  createMatch,
  depositReference,
  fund,
  registerPlayer,
  settled,
  unique,
  type Answer,
  type Player,
} from '../support/api.ts';

describe('money writes', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  /** Sends the same write twice with one key: the second answer is the first, replayed. */
  async function twice(send: (headers: Record<string, string>) => Promise<Answer>) {
    const headers = { 'idempotency-key': unique('money') };
    const first = await send(headers);
    const again = await send(headers);
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    return first;
  }

  const count = async (sql: string, id: number) =>
    (await api.db.unsafe(`select count(*)::int as n from public.transactions where ${sql}`, [id]))[0].n as number;

  it('are exactly the routes the SPA sends an Idempotency-Key with', async () => {
    const doc = (await new Client(api.server.url).get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const keyed = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) =>
          operation.parameters?.some((parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key'),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(keyed.sort()).toEqual([...MONEY_WRITES].sort());
  });

  it('a deposit request, a withdrawal and an admin credit: once each', async () => {
    const player = await registerPlayer(api.server);
    const reference = depositReference();
    const deposit = await twice((headers) =>
      player.client.post('/api/wallet/deposit', { amount: 1000, paymentMethod: 'upi', reference }, headers),
    );
    expect(deposit.status).toBe(201);
    expect(deposit.body).toMatchObject({ reference_id: reference, status: 'pending' });
    expect(deposit.body.redirect_url).toContain(`reference=${reference}`);
    expect(await count(`type = 'deposit' and user_id = $1`, player.id)).toBe(1);

    const credit = await twice((headers) =>
      api.admin.client.post(`/api/admin/users/${player.id}/wallet`, { amount: 3000, notes: 'goodwill' }, headers),
    );
    expect(credit.status).toBe(201);
    expect(await balance(api.db, player.id)).toBe(3000);
    expect(await count(`type = 'admin_adjustment' and user_id = $1`, player.id)).toBe(1);
  });

  it('approving and rejecting a pending transaction: the replay answers as the first time, not 409', async () => {
    const player = await registerPlayer(api.server);
    const pending = async () => {
      const reference = depositReference();
      const created = await player.client.post('/api/wallet/deposit', {
        amount: 2000,
        paymentMethod: 'upi',
        reference,
      });
      return created.body.id as number;
    };
    const approved = await pending();
    const approval = await twice((headers) =>
      api.admin.client.patch(`/api/admin/transactions/${approved}/approve`, undefined, headers),
    );
    expect(approval.status).toBe(200);
    expect(approval.body).toMatchObject({ id: approved, status: 'completed' });
    expect(await balance(api.db, player.id)).toBe(2000);

    const rejected = await pending();
    const rejection = await twice((headers) =>
      api.admin.client.patch(`/api/admin/transactions/${rejected}/reject`, undefined, headers),
    );
    expect(rejection.body).toMatchObject({ id: rejected, status: 'failed' });
    // without a key a second try is evaluated afresh: already processed
    expect((await api.admin.client.patch(`/api/admin/transactions/${approved}/approve`)).status).toBe(409);
    expect(await balance(api.db, player.id)).toBe(2000);
  });

  it('declaring a winner and abandoning a match: one settlement each', async () => {
    const bettor = async (): Promise<Player> => {
      const player = await registerPlayer(api.server);
      await fund(api.server, player, 5000);
      return player;
    };
    const [winner, refunded] = [await bettor(), await bettor()];
    const declared = await createMatch(api.admin, { live: true });
    const abandoned = await createMatch(api.admin, { live: true });
    await winner.client.post('/api/bets', { match_id: declared.id, team_id: declared.team1_id, amount: 1000 });
    await refunded.client.post('/api/bets', { match_id: abandoned.id, team_id: abandoned.team1_id, amount: 1000 });

    const declaration = await twice((headers) =>
      api.admin.client.patch(
        `/api/admin/matches/${declared.id}/declare-winner`,
        { winning_team_id: declared.team1_id },
        headers,
      ),
    );
    expect(declaration.body).toMatchObject({
      id: declared.id,
      status: 'completed',
      winning_team_id: declared.team1_id,
    });
    const abandonment = await twice((headers) =>
      api.admin.client.patch(`/api/admin/matches/${abandoned.id}/abandon`, undefined, headers),
    );
    expect(abandonment.body).toMatchObject({ id: abandoned.id, status: 'completed', match_result: 'Match abandoned' });
    await settled(api.db, declared.id);
    await settled(api.db, abandoned.id);
    expect(await balance(api.db, winner.id)).toBe(5000 - 1000 + 3000);
    expect(await balance(api.db, refunded.id)).toBe(5000);
  });

  it('one key is one request: the same key for another target or by another admin is its own', async () => {
    const player = await registerPlayer(api.server);
    const headers = { 'idempotency-key': unique('money') };
    const first = await api.admin.client.post(
      `/api/admin/users/${player.id}/wallet`,
      { amount: 100, notes: 'a' },
      headers,
    );
    expect(first.status).toBe(201);
    const other = await registerPlayer(api.server);
    const elsewhere = await api.admin.client.post(
      `/api/admin/users/${other.id}/wallet`,
      { amount: 100, notes: 'a' },
      headers,
    );
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body).toEqual({ message: 'Idempotency key reused with a different request' });
    // keys belong to their caller: another admin's same key is a request of its own
    const secondAdmin = await createAdmin(api.server, api.db);
    const theirs = await secondAdmin.client.post(
      `/api/admin/users/${player.id}/wallet`,
      { amount: 100, notes: 'a' },
      headers,
    );
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
    expect(await balance(api.db, player.id)).toBe(200);
    expect(await balance(api.db, other.id)).toBe(0);
  });
});
