// Concurrency of the money paths against a real, migrated Postgres (DATABASE_URL), through the same
// app.* functions and the same per-request transaction shape the API uses: claims set transaction-local,
// `set local role service_role`, one business call. Several real connections race for the same rows.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required (a migrated database)');

// 20 connections: enough that dozens of requests really run at once.
const sql = postgres(url, { max: 20, onnotice: () => {}, idle_timeout: 5 });
type Tx = postgres.TransactionSql;

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
let seq = 0;
const uniq = (p: string) => `${p}_${run}_${++seq}`;
let refSeq = 0;
const newRef = () => `REF-${Date.now()}${++refSeq}-CONC`;

/** One API request: a transaction with the caller's claims, business functions as service_role. */
async function request<T>(user: { id: number; role: string } | null, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    const claims = user ? JSON.stringify({ role: 'authenticated', user_id: user.id, app_role: user.role }) : '';
    await tx`select set_config('request.jwt.claims', ${claims}, true)`;
    await tx`set local role service_role`;
    return fn(tx);
  })) as T;
}

async function createPlayer(balance: number) {
  const username = uniq('p');
  const [u] = await request(null, (tx) =>
    tx`select id from app.register_user(${username}, 'hash', 'Concurrent Player', ${username + '@example.test'}, null, null)`,
  );
  const player = { id: Number(u.id), role: 'user' };
  for (let left = balance; left > 0; left -= 100000) {
    const amount = Math.min(left, 100000);
    const ref = newRef();
    await request(player, (tx) => tx`select app.request_deposit(${amount}, 'upi', ${ref})`);
    await request(null, (tx) => tx`select app.complete_deposit(${ref}, ${amount}, 'success', ${'GW-' + ref})`);
  }
  return player;
}

async function createAdmin() {
  const username = uniq('admin');
  const [u] = await request(null, (tx) => tx`select id from app.create_admin(${username}, 'hash', 'Admin', null)`);
  return { id: Number(u.id), role: 'admin' };
}

async function createLiveMatch(admin: { id: number; role: string }) {
  const [m] = await request(admin, (tx) => tx`select id from app.create_match(1, 2, now())`);
  await request(admin, (tx) => tx`select app.start_match(${m.id})`);
  return Number(m.id);
}

async function balance(userId: number) {
  const [u] = await sql`select wallet_balance from public.users where id = ${userId}`;
  return Number(u.wallet_balance);
}

async function reconcile() {
  return sql`select * from app.reconcile()`;
}

function settle<T>(promises: Promise<T>[]) {
  return Promise.allSettled(promises).then((results) => ({
    ok: results.filter((r) => r.status === 'fulfilled').length,
    errors: results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => `${r.reason?.code}: ${r.reason?.message}`),
  }));
}

let admin: { id: number; role: string };

beforeAll(async () => {
  admin = await createAdmin();
});

afterAll(async () => {
  await sql.end({ timeout: 5 });
});

describe('money paths under concurrency', () => {
  it('50 simultaneous bets of 1000 from a wallet of 10000 place exactly 10', async () => {
    const player = await createPlayer(10000);
    const match = await createLiveMatch(admin);

    const { ok, errors } = await settle(
      Array.from({ length: 50 }, () => request(player, (tx) => tx`select id from app.place_bet(${match}, 1, 1000)`)),
    );

    expect(ok).toBe(10);
    expect(errors).toHaveLength(40);
    expect(new Set(errors)).toEqual(
      new Set([
        "BT409: Insufficient balance: You don't have enough funds in your wallet. Please recharge your wallet.",
      ]),
    );
    expect(await balance(player.id)).toBe(0);
    const [bets] = await sql`select count(*)::int as n, sum(amount)::bigint as total from public.bets where user_id = ${player.id}`;
    expect(bets.n).toBe(10);
    expect(Number(bets.total)).toBe(10000);
    const [ledger] = await sql`
      select count(*)::int as n from public.transactions where user_id = ${player.id} and type = 'bet_placed'`;
    expect(ledger.n).toBe(10);
    expect(await reconcile()).toEqual([]);
  });

  it('two simultaneous approvals of one withdrawal debit once', async () => {
    const player = await createPlayer(10000);
    const [account] = await request(player, (tx) =>
      tx`select id from app.add_bank_account('Concurrent Player', '123456789012', 'HDFC0001234', 'HDFC Bank')`,
    );
    const [withdrawal] = await request(player, (tx) => tx`select id from app.request_withdrawal(6000, ${account.id})`);
    const secondAdmin = await createAdmin();

    const { ok, errors } = await settle([
      request(admin, (tx) => tx`select app.approve_transaction(${withdrawal.id})`),
      request(secondAdmin, (tx) => tx`select app.approve_transaction(${withdrawal.id})`),
    ]);

    expect(ok).toBe(1);
    expect(errors).toEqual(['BT409: Transaction is not pending']);
    expect(await balance(player.id)).toBe(4000);
    const [row] = await sql`select status from public.transactions where id = ${withdrawal.id}`;
    expect(row.status).toBe('completed');
    expect(await reconcile()).toEqual([]);
  });

  it('two simultaneous declare_winner calls pay out once', async () => {
    const winner = await createPlayer(5000);
    const loser = await createPlayer(5000);
    const match = await createLiveMatch(admin);
    await request(winner, (tx) => tx`select app.place_bet(${match}, 1, 2000)`);
    await request(loser, (tx) => tx`select app.place_bet(${match}, 2, 3000)`);
    const secondAdmin = await createAdmin();

    const { ok, errors } = await settle([
      request(admin, (tx) => tx`select app.declare_winner(${match}, 1)`),
      request(secondAdmin, (tx) => tx`select app.declare_winner(${match}, 2)`),
    ]);

    expect(ok).toBe(1);
    expect(errors).toEqual(['BT409: Match is already completed']);
    const [m] = await sql`select status, winning_team_id from public.matches where id = ${match}`;
    expect(m.status).toBe('completed');
    // whichever call won, exactly one side was paid exactly once
    const paid = Number(m.winning_team_id) === 1 ? winner : loser;
    const unpaid = paid === winner ? loser : winner;
    const stake = paid === winner ? 2000 : 3000;
    expect(await balance(paid.id)).toBe(5000 - stake + stake * 3);
    expect(await balance(unpaid.id)).toBe(5000 - (paid === winner ? 3000 : 2000));
    const [won] = await sql`
      select count(*)::int as n from public.transactions t join public.bets b on t.reference_id = 'BET-' || b.id
      where b.match_id = ${match} and t.type = 'bet_won'`;
    expect(won.n).toBe(1);
    expect(await reconcile()).toEqual([]);
  });

  it('20 simultaneous deposit requests of 1000 against a daily limit of 5000 create exactly 5', async () => {
    const player = await createPlayer(0);
    await request(player, (tx) => tx`select app.set_deposit_limit('daily', 5000)`);

    const { ok, errors } = await settle(
      Array.from({ length: 20 }, () => request(player, (tx) => tx`select id from app.request_deposit(1000, 'upi', ${newRef()})`)),
    );

    expect(ok).toBe(5);
    expect(new Set(errors)).toEqual(new Set(['BT409: Deposit limit reached: Your daily limit is ₹5,000 and nothing is left.']));
    const [deposits] = await sql`
      select count(*)::int as n, sum(amount)::bigint as total from public.transactions where user_id = ${player.id} and type = 'deposit'`;
    expect(deposits.n).toBe(5);
    expect(Number(deposits.total)).toBe(5000);
  });

  it('a withdrawal and bets racing for the same funds never overdraw', async () => {
    for (let round = 0; round < 5; round++) {
      const player = await createPlayer(10000);
      const match = await createLiveMatch(admin);
      const [account] = await request(player, (tx) =>
        tx`select id from app.add_bank_account('Racing Player', '987654321098', 'ICIC0004321', 'ICICI Bank')`,
      );

      const withdrawal = request(player, (tx) => tx`select id from app.request_withdrawal(5000, ${account.id})`);
      const bets = Array.from({ length: 10 }, () =>
        request(player, (tx) => tx`select id from app.place_bet(${match}, 2, 1000)`),
      );
      // settle both at once: awaiting one first would leave the other's refusals unhandled meanwhile
      const [[w], placed] = await Promise.all([Promise.allSettled([withdrawal]), settle(bets)]);

      // approve the withdrawal if it was created: the debit is re-checked against the balance
      if (w.status === 'fulfilled') {
        await request(admin, (tx) => tx`select app.approve_transaction(${w.value[0].id})`);
      }
      const withdrawn = w.status === 'fulfilled' ? 5000 : 0;
      expect(placed.ok * 1000 + withdrawn).toBeLessThanOrEqual(10000);
      expect(await balance(player.id)).toBe(10000 - placed.ok * 1000 - withdrawn);
      expect(await balance(player.id)).toBeGreaterThanOrEqual(0);
      expect(await reconcile()).toEqual([]);
    }
  });
});
