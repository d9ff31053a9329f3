/**
 * Every answer is the truth when the database stalls or dies, on a PostgreSQL of this file's own:
 *   - frozen for 15 s (every process of it stopped with SIGSTOP) while 50 bets without an Idempotency-Key
 *     and 50 with one are in flight: a bet answered 201 is stored once, one answered 4xx or 503 is not
 *     stored, every 504 ("outcome": "unknown") is resolved by its key's replay, and no key has two bets;
 *     meanwhile GET /api/health answers 503 within a second, and 200 once the database is back;
 *   - killed (SIGKILL) in the middle of a settlement: the remaining batches start within 2 s of PostgreSQL
 *     accepting connections again, woken by the server's LISTEN coming back (the sweep is off), and every
 *     bet is settled exactly once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPlayersWithBets } from '../../scripts/lib/bulk-data.js';
import {
  balance,
  createAdmin,
  createMatch,
  database,
  fund,
  reconcile,
  registerPlayer,
  settled,
  unique,
  type Answer,
  type Db,
  type Player,
  type TestServer,
} from '../support/api.ts';
import { within } from '../support/local-runtime.ts';
import { ownPostgres, type OwnPostgres } from '../support/own-postgres.ts';
import { startServer } from '../support/server.ts';

const FREEZE_MS = 15_000;
const FUNDS = 100_000;
const UNKNOWN = { message: 'We could not confirm this request. Check before trying again.', outcome: 'unknown' };

describe('a stalled or killed PostgreSQL', () => {
  let pg: OwnPostgres;
  let server: TestServer;
  let db: Db;
  let admin: Player;

  beforeAll(async () => {
    pg = await ownPostgres();
    // No sweep: only the server's LISTEN coming back may resume a settlement. Small batches: many of them.
    server = await startServer({
      databaseUrl: pg.url,
      env: { SETTLEMENT_SWEEP_SECONDS: '0', SETTLEMENT_BATCH_SIZE: '50' },
    });
    db = database(pg.url);
    admin = await createAdmin(server, db);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await db?.end({ timeout: 0 });
    await pg?.remove();
  });

  it('answers every bet truthfully while PostgreSQL is frozen for 15 s, and health within a second', async () => {
    const match = await createMatch(admin, { live: true });
    const players = await Promise.all(Array.from({ length: 10 }, () => registerPlayer(server)));
    for (const player of players) await fund(server, player, FUNDS);

    // 100 bets, each of its own amount (a stored bet names the request it came from), every other one with
    // a key; sent while the database is frozen, spread over most of the freeze: the first ones go out on
    // the pool's open connections, later ones wait for one, the last ones for a new pool's.
    const bets = Array.from({ length: 100 }, (_, index) => ({
      player: players[index % players.length],
      amount: 1000 + index,
      key: index % 2 === 0 ? unique('stall') : undefined,
    }));
    const place = (bet: (typeof bets)[number]) =>
      bet.player.client.post(
        '/api/bets',
        { match_id: match.id, team_id: match.team1_id, amount: bet.amount },
        bet.key ? { 'idempotency-key': bet.key } : {},
      );
    pg.freeze();
    const frozenAt = Date.now();
    let answers: Answer[];
    try {
      const placing = Promise.all(
        bets.map(async (bet, index) => {
          await sleep((index * (FREEZE_MS - 2_000)) / bets.length);
          return place(bet);
        }),
      );
      const asked = Date.now();
      const health = await fetch(`${server.url}/api/health`);
      expect(Date.now() - asked).toBeLessThan(1_000);
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toBe('5');
      expect(await health.json()).toMatchObject({ status: 'degraded', database: 'unavailable' });
      await sleep(FREEZE_MS - (Date.now() - frozenAt));
      pg.thaw();
      answers = await placing;
    } finally {
      pg.thaw();
    }
    expect(await within(5_000, async () => (await fetch(`${server.url}/api/health`)).status === 200)).toBe(true);

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => ![201, 503, 504].includes(status))).toEqual([]);
    // the freeze did what it is for: some bets were out when it came, others waited for a connection
    expect(statuses).toContain(504);
    expect(statuses).toContain(503);

    const storedByAmount = async () => {
      const rows = await db`select id, amount from public.bets where match_id = ${match.id}`;
      // an amount twice would be a request stored twice
      expect(new Set(rows.map((row) => row.amount)).size).toBe(rows.length);
      return new Map(rows.map((row) => [row.amount as number, row.id as number]));
    };
    const before = await storedByAmount();
    for (const [index, answer] of answers.entries()) {
      const bet = bets[index];
      if (answer.status === 201) expect(before.get(bet.amount)).toBe(answer.body.id);
      if (answer.status === 503) {
        expect(answer.body).toEqual({ message: 'Service temporarily unavailable' });
        expect(before.has(bet.amount)).toBe(false);
      }
      if (answer.status === 504) {
        expect(answer.body).toEqual(UNKNOWN);
        expect(answer.headers.get('retry-after')).toBe('5');
      }
    }
    // every unknown outcome with a key is resolved by sending it again: the bet, stored once
    for (const [index, answer] of answers.entries()) {
      const bet = bets[index];
      if (answer.status !== 504 || !bet.key) continue;
      const replay = await place(bet);
      expect(replay.status).toBe(201);
      expect(replay.body).toMatchObject({ amount: bet.amount, match_id: match.id });
      expect((await storedByAmount()).get(bet.amount)).toBe(replay.body.id);
    }
    // and sending any keyed bet again places nothing more
    for (const bet of bets.filter((bet) => bet.key)) await place(bet);
    const after = await storedByAmount();
    expect(after.size).toBeLessThanOrEqual(bets.length);
    for (const player of players) {
      const staked = bets
        .filter((bet) => bet.player === player && after.has(bet.amount))
        .reduce((sum, bet) => sum + bet.amount, 0);
      expect(await balance(db, player.id)).toBe(FUNDS - staked);
    }
    expect(await reconcile(db)).toEqual([]);
  }, 120_000);

  it('resumes a settlement cut off by a crash within 2 s of PostgreSQL accepting connections again', async () => {
    const match = await createMatch(admin, { live: true });
    const bets = await addPlayersWithBets(db, { matchId: match.id, players: 1000, tag: unique('crash') });
    const [middle] = await db`
      select b.user_id from public.bets b where b.match_id = ${match.id} order by b.user_id offset 400 limit 1`;

    // Hold a player in the middle: the batch that holds them waits for the lock, the ones before settle.
    const holder = postgres(pg.url, { max: 1, onnotice: () => {} });
    const held = holder.begin(async (tx) => {
      await tx`select 1 from public.users where id = ${middle.user_id} for update`;
      await new Promise(() => {}); // until the crash
    });
    held.catch(() => {});
    const declared = await admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, {
      winning_team_id: match.team1_id,
    });
    expect(declared.status).toBe(200);
    expect(
      await within(10_000, async () => {
        const [waiting] = await db`
          select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%settle_step%'`;
        return waiting.n > 0;
      }),
    ).toBe(true);
    const [before] = await db`select settlement_settled as settled from public.matches where id = ${match.id}`;
    expect(before.settled).toBeGreaterThan(0);
    expect(before.settled).toBeLessThan(bets);

    const killedAt = new Date();
    await pg.kill();
    await holder.end({ timeout: 0 });
    await sleep(1_000); // down for a while: the server's LISTEN is lost, its settlement stopped
    await pg.start();
    const acceptingAt = Date.now();

    await settled(db, match.id);
    const [resumed] = await db`
      select min(t) as at from app.settlement_batches b, lateral (values (b.claimed_at), (b.settled_at)) v (t)
      where b.match_id = ${match.id} and t > ${killedAt}`;
    expect((resumed.at as Date).getTime() - acceptingAt).toBeLessThan(2_000);

    const [outcome] = await db`
      select count(*) filter (where status = 'placed')::int as placed,
             count(*) filter (where status = 'won')::int as won,
             count(*) filter (where status = 'lost')::int as lost
      from public.bets where match_id = ${match.id}`;
    expect(outcome).toEqual({ placed: 0, won: bets / 2, lost: bets / 2 });
    const [credits] = await db`
      select count(*)::int as rows, count(distinct t.reference_id)::int as bets from public.transactions t
      join public.bets b on t.reference_id = 'BET-' || b.id
      where b.match_id = ${match.id} and t.type = 'bet_won'`;
    expect(credits).toEqual({ rows: bets / 2, bets: bets / 2 });
    expect(await reconcile(db)).toEqual([]);
  }, 120_000);
});
