// Result corrections under concurrency, against a real, migrated Postgres (DATABASE_URL), through the same
// app.* functions and per-request transaction shape the API uses: two admins approving one correction at
// once, and a worker killed in the middle of a correction's batch. Each bet is corrected exactly once, and
// the books reconcile.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required (a migrated database)');

const sql = postgres(url, { max: 10, onnotice: () => {}, idle_timeout: 5 });
type Tx = postgres.TransactionSql;
type Caller = { id: number; role: string };

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
let seq = 0;
const uniq = (p: string) => `${p}_${run}_${++seq}`;
const newRef = () => `REF-${Date.now()}${++seq}-CORR`;

/** One API request: a transaction with the caller's claims, business functions as service_role. */
async function request<T>(user: Caller | null, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    const claims = user ? JSON.stringify({ role: 'authenticated', user_id: user.id, app_role: user.role }) : '';
    await tx`select set_config('request.jwt.claims', ${claims}, true)`;
    await tx`set local role service_role`;
    return fn(tx);
  })) as T;
}

async function createPlayer(amount: number): Promise<Caller> {
  const username = uniq('p');
  const [u] = await request(
    null,
    (tx) =>
      tx`select id from app.register_user(${username}, 'hash', 'Corrected Player', ${username + '@example.test'}, null, null)`,
  );
  const player = { id: Number(u.id), role: 'user' };
  const ref = newRef();
  await request(player, (tx) => tx`select app.request_deposit(${amount}, 'upi', ${ref})`);
  await request(null, (tx) => tx`select app.complete_deposit(${ref}, ${amount}, 'success', ${'GW-' + ref})`);
  return player;
}

async function createAdmin(): Promise<Caller> {
  const username = uniq('admin');
  const [u] = await request(null, (tx) => tx`select id from app.create_admin(${username}, 'hash', 'Admin', null)`);
  return { id: Number(u.id), role: 'admin' };
}

/** One settlement worker: app.settle_step again and again, each call its own transaction, until idle. */
async function settleWorker(batchSize: number) {
  while ((await sql`select app.settle_step(${batchSize}) as step`)[0].step !== 'idle');
}

const balance = async (id: number) =>
  Number((await sql`select wallet_balance from public.users where id = ${id}`)[0].wallet_balance);
const reconcile = () => sql`select * from app.reconcile()`;

let proposer: Caller;
let approvers: Caller[];

beforeAll(async () => {
  proposer = await createAdmin();
  approvers = await Promise.all(Array.from({ length: 5 }, () => createAdmin()));
});

afterAll(async () => {
  await sql.end({ timeout: 5 });
});

/** A match with `players` bets of 1000 (odd players on team 1, even on team 2), won by team 1 and settled. */
async function settledMatch(players: number) {
  const [m] = await request(proposer, (tx) => tx`select id from app.create_match(1, 2, now())`);
  const match = Number(m.id);
  await request(proposer, (tx) => tx`select app.start_match(${match})`);
  const bettors = await Promise.all(Array.from({ length: players }, () => createPlayer(5000)));
  await Promise.all(
    bettors.map((player, n) => request(player, (tx) => tx`select app.place_bet(${match}, ${1 + (n % 2)}, 1000)`)),
  );
  await request(proposer, (tx) => tx`select app.declare_winner(${match}, 1)`);
  await settleWorker(4);
  return { match, bettors };
}

async function propose(match: number, team: number) {
  const [row] = await request(
    proposer,
    (tx) =>
      tx`select (app.propose_result_correction(${match}, ${team}, null, false, 'Wrong team tapped in the dialog') ->> 'id')::bigint as id`,
  );
  return Number(row.id);
}

/** Each bet of the match corrected once: one reversal per earlier winner, one payout per new winner. */
async function expectCorrectedOnce(match: number, correction: number, bettors: Caller[]) {
  const [rows] = await sql`
    select count(*) filter (where t.type = 'settlement_reversal')::int as reversals,
           count(*) filter (where t.type = 'bet_won')::int as payouts,
           count(distinct t.reference_id)::int as references
    from public.transactions t
    join public.bets b on t.reference_id = 'BET-' || b.id || '-C' || ${correction}
    where b.match_id = ${match}`;
  expect(rows).toEqual({ reversals: bettors.length / 2, payouts: bettors.length / 2, references: bettors.length });
  for (const [n, player] of bettors.entries())
    expect(await balance(player.id), `player ${n}`).toBe(n % 2 === 0 ? 4000 : 7000);
  const [corrected] = await sql`select status from app.result_corrections where id = ${correction}`;
  expect(corrected.status).toBe('applied');
  expect(await reconcile()).toEqual([]);
}

describe('result corrections under concurrency', () => {
  it('five admins approving one correction at once: one applies it, the others find it decided', async () => {
    const { match, bettors } = await settledMatch(8);
    const correction = await propose(match, 2);
    const answers = await Promise.allSettled(
      approvers.map((admin) => request(admin, (tx) => tx`select app.decide_result_correction(${correction}, true)`)),
    );
    const refused = answers
      .filter((a): a is PromiseRejectedResult => a.status === 'rejected')
      .map((a) => `${a.reason.code}: ${a.reason.message}`);
    expect(answers.length - refused.length).toBe(1);
    expect(new Set(refused)).toEqual(new Set(['BT409: This correction has already been decided']));
    await Promise.all([settleWorker(2), settleWorker(2)]);
    await expectCorrectedOnce(match, correction, bettors);
  });

  it('a worker killed in the middle of a correction batch loses nothing: the sweep corrects every bet once', async () => {
    const { match, bettors } = await settledMatch(8);
    const correction = await propose(match, 2);
    await request(approvers[0], (tx) => tx`select app.decide_result_correction(${correction}, true)`);
    // one batch corrected and committed, as a worker would
    await sql`select app.claim_settlement_batch(${match}, 2)`;
    await sql`select app.settle_batch(${match})`;
    // the next batch is claimed, and its worker dies before it commits
    await sql`select app.claim_settlement_batch(${match}, 2)`;
    const worker = postgres(url!, { max: 1, onnotice: () => {} });
    const [{ pid }] = await worker`select pg_backend_pid() as pid`;
    await worker`begin`;
    expect((await worker`select app.settle_batch(${match}) as n`)[0].n).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(${pid})`;
    await worker`commit`.catch(() => {});
    await worker.end({ timeout: 0 });
    expect(await reconcile(), 'in the middle of the run, after the crash').toEqual([]);

    await settleWorker(2); // the sweep
    await expectCorrectedOnce(match, correction, bettors);
  });
});
