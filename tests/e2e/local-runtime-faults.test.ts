/**
 * The local runtime heals itself (`npm start` with embedded PostgreSQL and two server workers):
 *   - PostgreSQL killed (SIGKILL) while players place bets: requests answer 503 with Retry-After (or 504,
 *     outcome unknown, for a bet that was on its way), never 500; once the supervisor has PostgreSQL back,
 *     bets succeed again within 10 s; every 201 bet is stored, only bets of unknown outcome beside them, and
 *     the ledger reconciles.
 *   - every server worker killed: the supervisor restarts them and the site serves again within 10 s.
 *   - PostgreSQL that cannot start again (its port taken): `npm start` gives up, stops and exits 1.
 *   - Ctrl-C while a bet waits inside PostgreSQL: the bet is answered 201, then PostgreSQL shuts down cleanly.
 * Bounded in time (loops end by count or deadline); nothing asserts how fast anything is beyond those bounds.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balance,
  createAdmin,
  createMatch,
  database,
  fund,
  reconcile,
  registerPlayer,
  type Db,
  type Player,
  type TestServer,
} from '../support/api.ts';
import {
  embeddedUrl,
  freePort,
  interrupt,
  leftovers,
  runtimeFolder,
  start,
  within,
  type Started,
} from '../support/local-runtime.ts';
import { TEST_PROXY_SECRET } from '../support/server.ts';

const folder = runtimeFolder();
const dataDir = path.join(folder, 'pg');
const STAKE = 1000;
const FUNDS = 100_000;

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const postmasterPid = () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('npm start under faults', () => {
  let runtime: Started;
  let server: TestServer;
  let pgUrl: string;
  let db: Db;

  beforeAll(async () => {
    const env = {
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_PG_DIR: dataDir,
      API_WORKERS: '2',
      TRUST_PROXY_HOPS: '1', // the helpers' players come from varied X-Forwarded-For addresses
      PROXY_SECRET: TEST_PROXY_SECRET,
    };
    runtime = await start(env);
    server = { url: `http://127.0.0.1:${env.PORT}`, stop: async () => {} };
    pgUrl = embeddedUrl(dataDir, env.EMBEDDED_PG_PORT);
    db = database(pgUrl);
  }, 120_000);

  afterAll(async () => {
    await db?.end({ timeout: 1 });
    if (runtime) await interrupt(runtime);
    expect(leftovers(dataDir)).toEqual([]);
  }, 60_000);

  it('answers 503 or 504, never 500, while PostgreSQL is down, and keeps every bet it accepted', async () => {
    const admin = await createAdmin(server, db);
    const match = await createMatch(admin, { live: true });
    const players: Player[] = [];
    for (let index = 0; index < 6; index++) {
      const player = await registerPlayer(server);
      await fund(server, player, FUNDS);
      players.push(player);
    }

    const answers: {
      player: Player;
      amount: number;
      status: number;
      body: unknown;
      retryAfter: string | null;
    }[] = [];
    const accepted = () => answers.filter((answer) => answer.status === 201).length;
    let loading = true;
    // each of a player's bets of its own amount, so a stored bet names the request it came from
    const bet = async (player: Player, amount: number) => {
      const answer = await player.client.post('/api/bets', { match_id: match.id, team_id: match.team1_id, amount });
      answers.push({
        player,
        amount,
        status: answer.status,
        body: answer.body,
        retryAfter: answer.headers.get('retry-after'),
      });
      return answer.status;
    };
    // Each player bets one after another, at most 80 times (its funds cover them all), until told to stop.
    const load = players.map(async (player) => {
      for (let count = 0; loading && count < 80; count++) {
        if ((await bet(player, STAKE + count)) !== 201) await sleep(100);
      }
    });

    expect(await within(20_000, async () => accepted() >= 20)).toBe(true);
    process.kill(postmasterPid(), 'SIGKILL');
    expect(await within(20_000, async () => answers.some((answer) => answer.status === 503))).toBe(true);

    // The supervisor restarts PostgreSQL; from the moment it answers again, bets succeed within 10 s.
    expect(
      await within(30_000, async () => {
        const probe = postgres(pgUrl, { max: 1, connect_timeout: 1, onnotice: () => {} });
        try {
          await probe`select 1`;
          return true;
        } finally {
          await probe.end({ timeout: 0 });
        }
      }),
    ).toBe(true);
    const back = answers.length;
    expect(await within(10_000, async () => answers.slice(back).some((answer) => answer.status === 201))).toBe(true);
    loading = false;
    await Promise.all(load);

    // 503: nothing was sent; 504: a bet whose statements were out when PostgreSQL died (stored or not)
    const statuses = new Set(answers.map((answer) => answer.status));
    expect(statuses).toContain(503);
    expect([...statuses].filter((status) => ![201, 503, 504].includes(status))).toEqual([]);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused.body).toEqual({ message: 'Service temporarily unavailable' });
      expect(refused.retryAfter).toBe('5');
    }
    for (const unknown of answers.filter((answer) => answer.status === 504)) {
      expect(unknown.body).toEqual({
        message: 'We could not confirm this request. Check before trying again.',
        outcome: 'unknown',
      });
      expect(unknown.retryAfter).toBe('5');
    }
    expect(runtime.output()).toMatch(
      /PostgreSQL stopped unexpectedly \(killed by SIGKILL[^)]*\); restarting in 0\.5 s/,
    );

    for (const player of players) {
      const rows = await db`select id, amount from public.bets where user_id = ${player.id}`;
      const stored = new Map(rows.map((row) => [row.amount, row.id]));
      expect(stored.size).toBe(rows.length);
      for (const answer of answers.filter((answer) => answer.player === player)) {
        // 201: stored, as answered; 503: not stored; 504: either
        if (answer.status === 201) expect(stored.get(answer.amount)).toBe((answer.body as { id: number }).id);
        if (answer.status === 503) expect(stored.has(answer.amount)).toBe(false);
      }
      const staked = [...stored.keys()].reduce((sum, amount) => sum + amount, 0);
      expect(await balance(db, player.id)).toBe(FUNDS - staked);
    }
    expect(await reconcile(db)).toEqual([]);
  }, 180_000);

  it('restarts killed server workers, serving again within 10 s', async () => {
    const workers = [
      ...runtime.output().matchAll(/Server worker \d+ (?:listening|is running again) \(pid (\d+)\)/g),
    ].map((match) => Number(match[1]));
    const alive = workers.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toHaveLength(2);
    const before = runtime.output().length;
    const since = () => runtime.output().slice(before);
    for (const pid of alive) process.kill(pid, 'SIGKILL');

    expect(
      await within(10_000, async () => {
        const health = await fetch(`${server.url}/api/health`);
        return (
          health.status === 200 &&
          since().includes('Server worker 1 is running again') &&
          since().includes('Server worker 2 is running again')
        );
      }),
    ).toBe(true);
    expect(since()).toMatch(/Server worker 1 stopped unexpectedly \(killed by SIGKILL\); restarting in 0\.5 s/);
    expect(since()).toMatch(/Server worker 2 stopped unexpectedly \(killed by SIGKILL\); restarting in 0\.5 s/);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  }, 60_000);
});

describe('npm start when PostgreSQL cannot come back', () => {
  const giveUpDir = path.join(folder, 'give-up');
  let squatter: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (squatter ? squatter.close(() => resolve()) : resolve())));

  it('gives up after repeated failures: stops the workers and exits 1', async () => {
    const pgPort = await freePort();
    const runtime = await start({
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(pgPort),
      EMBEDDED_PG_DIR: giveUpDir,
      API_WORKERS: '1',
    });
    const exited = new Promise<number | null>((resolve) => runtime.child.once('exit', resolve));
    process.kill(Number(readFileSync(path.join(giveUpDir, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGKILL');
    // Take the port before the first restart (0.5 s later), so every restart fails.
    expect(
      await within(400, async () => {
        squatter = await new Promise<Server>((resolve, reject) => {
          const server = createServer((socket) => socket.destroy())
            .once('error', reject)
            .listen(pgPort, '127.0.0.1', () => resolve(server));
        });
        return true;
      }),
    ).toBe(true);

    expect(await exited).toBe(1);
    expect(runtime.output()).toMatch(
      /PostgreSQL failed 6 times in a row \(last: did not start: Embedded PostgreSQL did not start on port \d+.*; giving up; stopping\./,
    );
    expect(runtime.output()).toMatch(/restarting in 8 s \(attempt 5 of 5\)/);
    expect(leftovers(giveUpDir)).toEqual([]);
  }, 90_000);
});

describe('Ctrl-C while a request is in flight', () => {
  const drainDir = path.join(folder, 'drain');

  it('lets it finish, then shuts PostgreSQL down cleanly', async () => {
    const pgPort = await freePort();
    const runtime = await start({
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(pgPort),
      EMBEDDED_PG_DIR: drainDir,
      API_WORKERS: '1',
      TRUST_PROXY_HOPS: '1',
      PROXY_SECRET: TEST_PROXY_SECRET,
    });
    const server = { url: runtime.output().match(/Ready: (http:\/\/localhost:\d+)/)![1], stop: async () => {} };
    const db = database(embeddedUrl(drainDir, pgPort));
    const admin = await createAdmin(server, db);
    const match = await createMatch(admin, { live: true });
    const player = await registerPlayer(server);
    await fund(server, player, 5000);

    // Hold the player's row: the bet's debit waits for it inside PostgreSQL, so the request is in flight.
    const holder = await db.reserve();
    await holder`begin`;
    await holder`select 1 from public.users where id = ${player.id} for update`;
    const betting = player.client.post('/api/bets', { match_id: match.id, team_id: match.team1_id, amount: 2000 });
    expect(
      await within(
        10_000,
        async () => (await db`select 1 from pg_stat_activity where wait_event_type = 'Lock'`).length > 0,
      ),
    ).toBe(true);

    const exited = new Promise((resolve) => runtime.child.once('exit', resolve));
    process.kill(-runtime.child.pid!, 'SIGINT'); // Ctrl-C
    expect(await within(10_000, async () => runtime.output().includes('"msg":"stopping"'))).toBe(true);
    await holder`commit`;
    holder.release();

    const bet = await betting;
    expect(bet.status).toBe(201);
    expect(bet.body).toMatchObject({ amount: 2000, status: 'placed' });
    expect(await exited).toBe(0);
    await db.end({ timeout: 0 });
    expect(leftovers(drainDir)).toEqual([]);
    // A clean shutdown leaves the cluster "shut down" (not "in production", as a crash would).
    const control = await promisify(execFile)(`/usr/lib/postgresql/15/bin/pg_controldata`, [drainDir]);
    expect(control.stdout).toMatch(/Database cluster state:\s+shut down\n/);
  }, 120_000);
});
