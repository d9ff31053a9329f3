/**
 * Keyset pages on every list (src/domain/paging.ts) and the admin screens' server-side search, filters and
 * counts (Search users, Search transactions, the status tabs): the contract over real HTTP on a real database.
 */
import { describe, expect, it } from 'vitest';
import { INVALID_CURSOR, INVALID_LIMIT, encodeCursor, nextPageUrl } from '../../src/domain/paging.ts';
import {
  apiSuite,
  Client,
  createMatch,
  depositReference,
  fund,
  newBankAccount,
  registerPlayer,
  unique,
} from '../support/api.ts';

describe('lists: keyset pages, search, filters and counts', () => {
  const api = apiSuite({ admin: true, reconciled: true });

  /** `count` pending deposits of a player, written straight into the ledger (pending rows move no money). */
  async function pendingDeposits(userId: number, count: number): Promise<number[]> {
    const rows = await api.db`
      insert into public.transactions (user_id, amount, type, status, reference_id, payment_method)
      select ${userId}, 500 + g, 'deposit', 'pending', ${depositReference()} || '-' || g, 'upi'
      from generate_series(1, ${count}::int) g
      order by g
      returning id`;
    return rows.map((row) => row.id as number);
  }

  /** Follows `Link: rel="next"` from `path` to the end; `between` runs after each page. */
  async function walk(client: Client, path: string, between: () => Promise<unknown> = async () => {}) {
    const pages: number[][] = [];
    let url: string | null = path;
    while (url) {
      const answer = await client.get(url);
      expect(answer.status).toBe(200);
      pages.push(answer.body.map((row: { id: number }) => row.id));
      url = nextPageUrl(answer.headers.get('link'));
      await between();
    }
    return pages;
  }

  it("walks a player's ledger exactly once, newest first, while rows are added meanwhile", async () => {
    const player = await registerPlayer(api.server);
    const existing = await pendingDeposits(player.id, 23);
    const added: number[] = [];
    const pages = await walk(player.client, '/api/wallet/transactions?limit=5', async () =>
      added.push(...(await pendingDeposits(player.id, 2))),
    );
    expect(pages.map((ids) => ids.length)).toEqual([5, 5, 5, 5, 3]);
    const walked = pages.flat();
    expect(walked).toEqual([...existing].sort((a, b) => b - a));
    expect(added.filter((id) => walked.includes(id))).toEqual([]);
    // a fresh walk sees everything, each once
    const again = (await walk(player.client, '/api/wallet/transactions?limit=200')).flat();
    expect(again).toHaveLength(existing.length + added.length);
    expect(new Set(again).size).toBe(again.length);
  });

  it("keeps the filters and the limit in the next page's link; the last page has none", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 1000);
    await pendingDeposits(player.id, 3);
    const first = await player.client.get('/api/wallet/transactions?type=deposit&status=pending&limit=2');
    expect(first.body.map((t: { status: string }) => t.status)).toEqual(['pending', 'pending']);
    const next = nextPageUrl(first.headers.get('link'))!;
    expect(next).toMatch(/^\/api\/wallet\/transactions\?type=deposit&status=pending&limit=2&cursor=[A-Za-z0-9_-]+$/);
    const last = await player.client.get(next);
    expect(last.body).toHaveLength(1);
    expect(last.headers.get('link')).toBeNull();
    const completed = await player.client.get('/api/wallet/transactions?type=deposit&status=completed');
    expect(completed.body.map((t: { amount: number }) => t.amount)).toEqual([1000]);
  });

  it.each([['0'], ['201'], ['abc'], ['1.5'], ['-3'], ['']])(
    'refuses limit=%s with a 400 and says why',
    async (limit) => {
      const player = await registerPlayer(api.server);
      for (const path of ['/api/wallet/transactions', '/api/bets']) {
        const answer = await player.client.get(`${path}?limit=${limit}`);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ message: INVALID_LIMIT });
      }
      const adminAnswer = await api.admin.client.get(`/api/admin/users?limit=${limit}`);
      expect(adminAnswer.body).toEqual({ message: INVALID_LIMIT });
    },
  );

  it('takes 1 and 200 rows per page, 50 by default', async () => {
    const player = await registerPlayer(api.server);
    await pendingDeposits(player.id, 205);
    expect((await player.client.get('/api/wallet/transactions?limit=1')).body).toHaveLength(1);
    expect((await player.client.get('/api/wallet/transactions?limit=200')).body).toHaveLength(200);
    expect((await player.client.get('/api/wallet/transactions')).body).toHaveLength(50);
  });

  it('refuses a malformed cursor with a 400, after the session check', async () => {
    const player = await registerPlayer(api.server);
    for (const cursor of ['%25%25', 'bm90LWFuLWlk', encodeCursor(0).slice(0, 1) + '!', 'MA']) {
      const answer = await player.client.get(`/api/wallet/transactions?cursor=${cursor}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: INVALID_CURSOR });
    }
    expect((await new Client(api.server.url).get('/api/bets?cursor=x%25')).status).toBe(401);
    expect((await player.client.get('/api/admin/users?cursor=x%25')).status).toBe(403);
  });

  it("a player's cursor shows another player only their own rows", async () => {
    const [alice, bob] = await Promise.all([registerPlayer(api.server), registerPlayer(api.server)]);
    const bobs = await pendingDeposits(bob.id, 3);
    const alices = await pendingDeposits(alice.id, 6);
    const first = await alice.client.get('/api/wallet/transactions?limit=2');
    const next = nextPageUrl(first.headers.get('link'))!;
    const asBob = await bob.client.get(next);
    expect(asBob.status).toBe(200);
    expect(asBob.body.map((t: { id: number }) => t.id)).toEqual([...bobs].reverse().slice(0, 2));
    expect(asBob.body.every((t: { user_id: number }) => t.user_id === bob.id)).toBe(true);
    // nor may a player ask for Alice's list by id, with or without her cursor
    expect(
      (await bob.client.get(`/api/wallet/transactions?userId=${alice.id}&cursor=${encodeCursor(alices[5])}`)).status,
    ).toBe(403);
    // an admin pages through Alice's ledger with ?userId=
    const adminPages = await walk(api.admin.client, `/api/wallet/transactions?userId=${alice.id}&limit=4`);
    expect(adminPages.flat()).toEqual([...alices].reverse());
  });

  it("pages the bets of a player and of a match, and counts the match's bets with the first page", async () => {
    const match = await createMatch(api.admin, { live: true });
    const players = await Promise.all([
      registerPlayer(api.server),
      registerPlayer(api.server),
      registerPlayer(api.server),
    ]);
    await Promise.all(players.map((player) => fund(api.server, player, 5000)));
    const placed: number[] = [];
    for (const player of players) {
      for (let n = 0; n < 2; n++) {
        const bet = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });
        expect(bet.status).toBe(201);
        placed.push(bet.body.id);
      }
    }
    const mine = await walk(players[0].client, '/api/bets?limit=1');
    expect(mine.flat()).toEqual(placed.slice(0, 2).reverse());
    const first = await api.admin.client.get(`/api/admin/bets/match/${match.id}?limit=4`);
    expect(first.headers.get('x-total-count')).toBe('6');
    expect(first.headers.get('x-total-stake')).toBe('6000');
    expect(first.body[0]).toMatchObject({ match_id: match.id, team: { short_name: 'MI' } });
    const second = await api.admin.client.get(nextPageUrl(first.headers.get('link'))!);
    expect(second.headers.get('x-total-count')).toBeNull();
    expect([...first.body, ...second.body].map((bet: { id: number }) => bet.id)).toEqual([...placed].reverse());
    expect((await api.admin.client.get('/api/admin/bets/match/999999')).status).toBe(404);
  });

  it("pages an admin's user tabs, counting the transactions and bets", async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const pending = await pendingDeposits(player.id, 4);
    for (const n of [1, 2, 3]) {
      const added = await player.client.post('/api/bank-accounts', {
        ...newBankAccount('Tab Player'),
        bank_name: `Bank ${n}`,
      });
      expect(added.status).toBe(201);
    }
    const transactions = await api.admin.client.get(`/api/admin/users/${player.id}/transactions?limit=3`);
    expect(transactions.headers.get('x-total-count')).toBe('5');
    expect(transactions.body.map((t: { id: number }) => t.id)).toEqual(pending.slice(1).reverse());
    const bets = await api.admin.client.get(`/api/admin/users/${player.id}/bets`);
    expect(bets.headers.get('x-total-count')).toBe('0');
    expect(bets.body).toEqual([]);
    const accounts = await walk(api.admin.client, `/api/admin/users/${player.id}/bank-accounts?limit=2`);
    expect(accounts.map((ids) => ids.length)).toEqual([2, 1]);
    const ids = accounts.flat();
    expect(ids).toEqual([...ids].sort((a, b) => a - b)); // in the order added
    expect((await api.admin.client.get('/api/admin/users/999999/transactions')).status).toBe(404);
  });

  it('finds users by id, by a part of the username, name or email, and by status tab, with counts', async () => {
    const tag = unique('srch').toLowerCase();
    const target = await registerPlayer(api.server, {
      email: `${tag}.someone@mail.example.com`,
      name: 'Zebulon Quixote',
    });
    const other = await registerPlayer(api.server);
    const byEmail = await api.admin.client.get(`/api/admin/users?q=${tag.slice(2, 12).toUpperCase()}`);
    expect(byEmail.body.map((u: { id: number }) => u.id)).toEqual([target.id]);
    expect(
      (await api.admin.client.get('/api/admin/users?q=bulon%20quix')).body.map((u: { id: number }) => u.id),
    ).toContain(target.id);
    expect((await api.admin.client.get(`/api/admin/users?q=${target.username.slice(1, 9)}`)).body[0].id).toBe(
      target.id,
    );
    const byId = await api.admin.client.get(`/api/admin/users?q=${other.id}`);
    expect(byId.body.map((u: { id: number }) => u.id)).toContain(other.id);
    // LIKE wildcards in a search are plain characters
    expect((await api.admin.client.get('/api/admin/users?q=%25%25_')).body).toEqual([]);

    const before = (await api.admin.client.get('/api/admin/users/counts')).body;
    expect(before.all).toBe(before.active + before.suspended + before.banned);
    expect((await api.admin.client.patch(`/api/admin/users/${target.id}/status`, { status: 'suspended' })).status).toBe(
      200,
    );
    const after = (await api.admin.client.get('/api/admin/users/counts')).body;
    expect(after).toEqual({ ...before, active: before.active - 1, suspended: before.suspended + 1 });
    const [{ count }] = await api.db`select count(*)::int as count from public.users where status = 'suspended'`;
    expect(after.suspended).toBe(count);

    const suspended = await walk(api.admin.client, '/api/admin/users?status=suspended&limit=2');
    expect(suspended.flat()).toContain(target.id);
    const statuses = await api.admin.client.get(`/api/admin/users?status=suspended&q=${tag}`);
    expect(statuses.body.map((u: { id: number; status: string }) => [u.id, u.status])).toEqual([
      [target.id, 'suspended'],
    ]);
    expect((await api.admin.client.get(`/api/admin/users?status=banned&q=${tag}`)).body).toEqual([]);
    // the whole list, newest first, each user once
    const everyone = (await walk(api.admin.client, '/api/admin/users?limit=200')).flat();
    expect(everyone).toEqual([...everyone].sort((a, b) => b - a));
    expect(everyone).toHaveLength(after.all);
  });

  it('finds transactions by id, user id or reference, and filters by type and status', async () => {
    const player = await registerPlayer(api.server);
    const reference = await fund(api.server, player, 1500);
    const [deposit] = (await player.client.get('/api/wallet/transactions')).body;
    const pending = await pendingDeposits(player.id, 2);
    const ids = (path: string) =>
      api.admin.client.get(path).then((answer) => answer.body.map((t: { id: number }) => t.id));

    expect(await ids(`/api/admin/transactions?q=${deposit.id}`)).toContain(deposit.id);
    expect(await ids(`/api/admin/transactions?q=%23${player.id}`)).toEqual(
      expect.arrayContaining([...pending, deposit.id]),
    );
    expect(await ids(`/api/admin/transactions?q=${reference.toLowerCase()}`)).toEqual([deposit.id]);
    expect(await ids('/api/admin/transactions?q=REF-none')).toEqual([]);

    const pendingDepositsPage = await api.admin.client.get(
      '/api/admin/transactions?type=deposit&status=pending&limit=200',
    );
    expect(
      pendingDepositsPage.body.every(
        (t: { type: string; status: string }) => t.type === 'deposit' && t.status === 'pending',
      ),
    ).toBe(true);
    expect(pendingDepositsPage.body.map((t: { id: number }) => t.id)).toEqual(expect.arrayContaining(pending));
    const withdrawals = await api.admin.client.get('/api/admin/transactions?type=withdrawal&status=pending');
    expect(
      withdrawals.body.every(
        (t: { type: string; status: string }) => t.type === 'withdrawal' && t.status === 'pending',
      ),
    ).toBe(true);
    expect((await api.admin.client.get('/api/admin/transactions?type=nope')).body).toEqual({
      message: 'Invalid transaction type',
    });

    const counts = (await api.admin.client.get('/api/admin/transactions/counts')).body;
    const [direct] = await api.db`
      select count(*) filter (where type = 'deposit')::int as pending_deposits,
             count(*) filter (where type = 'withdrawal')::int as pending_withdrawals,
             count(*) filter (where type = 'admin_adjustment')::int as pending_adjustments
      from public.transactions where status = 'pending'`;
    expect(counts).toEqual(direct);
    expect((await player.client.get('/api/admin/transactions/counts')).status).toBe(403);
  });
});
