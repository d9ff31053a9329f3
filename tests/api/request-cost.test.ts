/**
 * What a request costs the database: round trips and statements, counted by a proxy
 * between the real server and PostgreSQL (scripts/lib/pg-counter.js). Budgets: one round trip for every
 * request (a write's answer comes from the same statement), two for a login (the password is checked
 * between them), none for a conditional read the live feed can vouch for. A bet, the request of match day,
 * also has a budget of the statements it runs inside the database, the functions' own included, counted by
 * pg_stat_statements (so the file has a PostgreSQL of its own, which preloads it).
 *
 * The server gets one pooled connection, so after a warm-up every statement is prepared on it and the
 * counts are those of steady state. Each request is measured three times and the least count is compared
 * with its budget: a background statement (the live feed's ping) can only add to a count, never hide one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createAdmin,
  createMatch,
  database,
  fund,
  newBankAccount,
  registerPlayer,
  startServer,
  type Db,
  type Player,
  type TestServer,
} from '../support/api.ts';
import { ownPostgres, type OwnPostgres } from '../support/own-postgres.ts';
import { startPgCounter, type Counts, type PgCounter } from '../../scripts/lib/pg-counter.js';

/** Statements a bet runs inside the database (top-level and in functions): docs/performance.md lists them. */
const BET_STATEMENTS = 32;

describe('database cost per request', () => {
  let pg: OwnPostgres;
  let counter: PgCounter;
  let server: TestServer;
  let db: Db;
  let admin: Player;
  let player: Player;
  let matchId: number;

  beforeAll(async () => {
    pg = await ownPostgres({
      postgresFlags: ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all'],
    });
    db = database(pg.url);
    await db`create extension pg_stat_statements`;
    counter = await startPgCounter(pg.url);
    server = await startServer({ databaseUrl: counter.url, env: { DATABASE_POOL_MAX: '1' } });
    admin = await createAdmin(server, db);
    player = await registerPlayer(server);
    // two deposits: the ledger has a second page even in a database of its own
    await fund(server, player, 25_000);
    await fund(server, player, 25_000);
    matchId = (await createMatch(admin, { live: true })).id;
    await player.client.post('/api/bank-accounts', newBankAccount('Cost Player'));
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await db?.end();
    await counter?.close();
    await pg?.remove();
  });

  /** The least counts of three runs of `request` (after two warm-up runs), and its last status. */
  async function cost(request: () => Promise<{ status: number }>): Promise<Counts & { status: number }> {
    await request();
    await request();
    let least: Counts = { statements: Infinity, roundTrips: Infinity };
    let status = 0;
    for (let run = 0; run < 3; run++) {
      counter.reset();
      status = (await request()).status;
      const counts = counter.counts();
      least = {
        statements: Math.min(least.statements, counts.statements),
        roundTrips: Math.min(least.roundTrips, counts.roundTrips),
      };
    }
    return { ...least, status };
  }

  it('an anonymous match list read from the database: one round trip', async () => {
    const anonymous = new Client(server.url);
    const spent = await cost(() => anonymous.get('/api/matches?status=live', { 'cache-control': 'no-cache' }));
    expect(spent).toEqual({ status: 200, roundTrips: 1, statements: 4 });
  });

  it('a public match read again while no match changed: answered from memory, no database work', async () => {
    const anonymous = new Client(server.url);
    const spent = await cost(() => anonymous.get('/api/matches?status=live'));
    expect(spent).toEqual({ status: 200, roundTrips: 0, statements: 0 });
  });

  it('a conditional match read with a current ETag: no database work at all', async () => {
    const anonymous = new Client(server.url);
    const first = await anonymous.get(`/api/matches/${matchId}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    const spent = await cost(() => anonymous.get(`/api/matches/${matchId}`, { 'if-none-match': etag }));
    expect(spent).toEqual({ status: 304, roundTrips: 0, statements: 0 });
  });

  it('signed-in reads: one round trip, session included', async () => {
    expect(await cost(() => player.client.get('/api/user'))).toEqual({ status: 200, roundTrips: 1, statements: 4 });
    expect(await cost(() => player.client.get('/api/bets'))).toEqual({ status: 200, roundTrips: 1, statements: 4 });
    expect(await cost(() => admin.client.get(`/api/admin/bets/match/${matchId}`))).toEqual({
      status: 200,
      roundTrips: 1,
      statements: 5,
    });
  });

  it('list pages, first and later, with search, filters and counts: one round trip each', async () => {
    const next = (path: string) =>
      admin.client.get(path).then((answer) => answer.headers.get('link')!.match(/<([^>]*)>/)![1]);
    const playerPages = [
      '/api/wallet/transactions?limit=1',
      '/api/wallet/transactions?type=deposit&status=completed',
      '/api/bets?limit=10',
    ];
    for (const path of playerPages)
      expect(await cost(() => player.client.get(path))).toMatchObject({ status: 200, roundTrips: 1 });
    const adminPages = [
      '/api/admin/users?limit=20',
      `/api/admin/users?q=${player.username.slice(0, 6)}&status=active`,
      '/api/admin/users/counts',
      '/api/admin/transactions',
      await next('/api/admin/transactions?limit=1'),
      '/api/admin/transactions?type=withdrawal&status=pending',
      `/api/admin/transactions?q=${player.id}`,
      '/api/admin/transactions/counts',
      `/api/admin/users/${player.id}/transactions?limit=10`,
      `/api/admin/users/${player.id}/bets`,
      `/api/admin/users/${player.id}/bank-accounts`,
      `/api/wallet/transactions?userId=${player.id}&limit=10`,
      `/api/admin/bets/match/${matchId}?limit=10`,
      '/api/admin/dashboard/stats',
    ];
    for (const path of adminPages)
      expect(await cost(() => admin.client.get(path))).toMatchObject({ status: 200, roundTrips: 1 });
  });

  it('player protection: reading and setting limits, a statement: one round trip each', async () => {
    expect(await cost(() => player.client.get('/api/account/limits'))).toEqual({
      status: 200,
      roundTrips: 1,
      statements: 4,
    });
    expect(
      await cost(() => player.client.put('/api/account/limits', { period: 'monthly', amount: 10_000_000 })),
    ).toEqual({ status: 200, roundTrips: 1, statements: 4 });
    expect(await cost(() => player.client.get('/api/wallet/statement.csv?from=2026-01-01&to=2026-12-31'))).toEqual({
      status: 200,
      roundTrips: 1,
      statements: 4,
    });
  });

  it('a bet: one round trip, its answer (bet, match, team) included', async () => {
    const spent = await cost(() => player.client.post('/api/bets', { match_id: matchId, team_id: 1, amount: 1000 }));
    expect(spent).toEqual({ status: 201, roundTrips: 1, statements: 4 });
    expect(await cost(() => player.client.get(`/api/matches/${matchId}/position`))).toEqual({
      status: 200,
      roundTrips: 1,
      statements: 4,
    });
  });

  /** Statements run inside the database since the last reset (pg_stat_statements' calls), less the counting's own. */
  async function executed(): Promise<Map<string, number>> {
    const rows = await db`
      select query, calls::int as calls from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
        and query not like '%pg_stat_statements%'`;
    return new Map(rows.map((row) => [row.query as string, row.calls as number]));
  }

  it("a bet: the statements it runs inside the database, the functions' own included, within its budget", async () => {
    const bet = () => player.client.post('/api/bets', { match_id: matchId, team_id: 1, amount: 1000 });
    await bet();
    await bet();
    let least = new Map<string, number>();
    let leastTotal = Infinity;
    for (let run = 0; run < 3; run++) {
      // counted from zero (the migrations alone fill pg_stat_statements, which then drops its least used entries)
      await db`select pg_stat_statements_reset()`;
      expect((await bet()).status).toBe(201);
      const ran = await executed();
      const total = [...ran.values()].reduce((sum, calls) => sum + calls, 0);
      if (total < leastTotal) [least, leastTotal] = [ran, total];
    }
    // The budget: what the rules of a bet need (the session, the match and the player under their locks,
    // the exclusions, the pending withdrawals, the bet and its foreign keys, its posting, the book and the
    // answer; docs/performance.md lists them). A change that adds a statement to every bet changes this number.
    const ran = [...least].map(([query, calls]) => `${calls} × ${query.replace(/\s+/g, ' ')}`).join('\n');
    expect(leastTotal, `statements of a bet:\n${ran}`).toBe(BET_STATEMENTS);
  });

  it('a bet with an Idempotency-Key, first and replayed: one round trip each', async () => {
    let key = 0;
    const fresh = await cost(() =>
      player.client.post(
        '/api/bets',
        { match_id: matchId, team_id: 1, amount: 1000 },
        { 'idempotency-key': `cost-${++key}` },
      ),
    );
    expect(fresh).toEqual({ status: 201, roundTrips: 1, statements: 5 });
    const replayed = await cost(() =>
      player.client.post('/api/bets', { match_id: matchId, team_id: 1, amount: 1000 }, { 'idempotency-key': 'cost-1' }),
    );
    expect(replayed).toEqual({ status: 201, roundTrips: 1, statements: 5 });
  });

  it('a withdrawal: one round trip', async () => {
    const [account] = (await player.client.get('/api/bank-accounts')).body;
    const spent = await cost(() =>
      player.client.post('/api/wallet/withdraw', { amount: 500, bankAccountId: account.id }),
    );
    expect(spent).toEqual({ status: 201, roundTrips: 1, statements: 4 });
  });

  it('an admin settlement: one round trip', async () => {
    // each run settles a match of its own
    const matches = await Promise.all(Array.from({ length: 5 }, () => createMatch(admin, { live: true })));
    const spent = await cost(() =>
      admin.client.patch(`/api/admin/matches/${matches.pop()!.id}/declare-winner`, { winning_team_id: 1 }),
    );
    expect(spent).toEqual({ status: 200, roundTrips: 1, statements: 4 });
  });

  it('house risk: suspend, resume, the risk view and the settings, one round trip each', async () => {
    const match = await createMatch(admin, { live: true });
    const oneTrip = { status: 200, roundTrips: 1, statements: 4 };
    expect(await cost(() => admin.client.patch(`/api/admin/matches/${match.id}/suspend`))).toEqual(oneTrip);
    expect(await cost(() => admin.client.patch(`/api/admin/matches/${match.id}/resume`))).toEqual(oneTrip);
    expect(await cost(() => admin.client.get(`/api/admin/matches/${match.id}/risk`))).toEqual(oneTrip);
    expect(await cost(() => admin.client.get('/api/admin/settings'))).toEqual(oneTrip);
    expect(await cost(() => admin.client.call('PUT', '/api/admin/settings', {}))).toEqual(oneTrip);
  });

  it('a login: two round trips, the password checked between them', async () => {
    const client = new Client(server.url);
    const spent = await cost(() => client.post('/api/login', { username: player.username, password: player.password }));
    expect(spent).toEqual({ status: 200, roundTrips: 2, statements: 10 });
    // a wrong password: its failure is recorded (and checked against the limits) before it is told
    const wrong = await cost(() => client.post('/api/login', { username: player.username, password: 'wrong-pass' }));
    expect(wrong).toEqual({ status: 401, roundTrips: 2, statements: 9 });
  });
});
