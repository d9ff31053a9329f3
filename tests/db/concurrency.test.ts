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
/** A bank account number nobody holds (a bank account belongs to one account). */
const accountNumber = () => `${Date.now()}${++seq}`;
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
  const [u] = await request(
    null,
    (tx) =>
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
let approver: { id: number; role: string };

/** One settlement worker: app.settle_step again and again, each call its own transaction, until idle. */
async function settleWorker(batchSize: number) {
  while ((await sql`select app.settle_step(${batchSize}) as step`)[0].step !== 'idle');
}

/** Runs `race` with the settings changed as given, then puts each back as it was. */
async function withSettings(changes: Record<string, number | null>, race: () => Promise<void>) {
  const keys = Object.keys(changes);
  const before = Object.fromEntries(
    (await sql`select key, value from app.settings where key = any(${keys})`).map((row) => [row.key, row.value]),
  );
  // raising a control on admin money waits for a second admin: `approver` is that admin
  const put = async (values: Record<string, unknown>) => {
    const [{ change }] = await request(
      admin,
      (tx) => tx`select app.update_risk_settings(${tx.json(values as postgres.JSONValue)}) -> 'change' as change`,
    );
    if (change) await request(approver, (tx) => tx`select app.decide_settings_change(${change.id}, true)`);
  };
  await put(changes);
  try {
    await race();
  } finally {
    await put(before);
  }
}

beforeAll(async () => {
  admin = await createAdmin();
  approver = await createAdmin();
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
    const [bets] =
      await sql`select count(*)::int as n, sum(amount)::bigint as total from public.bets where user_id = ${player.id}`;
    expect(bets.n).toBe(10);
    expect(Number(bets.total)).toBe(10000);
    const [ledger] = await sql`
      select count(*)::int as n from public.transactions where user_id = ${player.id} and type = 'bet_placed'`;
    expect(ledger.n).toBe(10);
    expect(await reconcile()).toEqual([]);
  });

  it('two simultaneous approvals of one withdrawal debit once', async () => {
    const player = await createPlayer(10000);
    const [account] = await request(
      player,
      (tx) =>
        tx`select id from app.add_bank_account('Concurrent Player', ${accountNumber()}, 'HDFC0001234', 'HDFC Bank')`,
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
    await Promise.all([settleWorker(1), settleWorker(1)]); // two workers
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
      Array.from({ length: 20 }, () =>
        request(player, (tx) => tx`select id from app.request_deposit(1000, 'upi', ${newRef()})`),
      ),
    );

    expect(ok).toBe(5);
    expect(new Set(errors)).toEqual(
      new Set(['BT409: Deposit limit reached: Your daily limit is ₹5,000 and nothing is left.']),
    );
    const [deposits] = await sql`
      select count(*)::int as n, sum(amount)::bigint as total from public.transactions where user_id = ${player.id} and type = 'deposit'`;
    expect(deposits.n).toBe(5);
    expect(Number(deposits.total)).toBe(5000);
  });

  it('a withdrawal and bets racing for the same funds never overdraw', async () => {
    for (let round = 0; round < 5; round++) {
      const player = await createPlayer(10000);
      const match = await createLiveMatch(admin);
      const [account] = await request(
        player,
        (tx) =>
          tx`select id from app.add_bank_account('Racing Player', ${accountNumber()}, 'ICIC0004321', 'ICICI Bank')`,
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

describe('house risk under concurrency', () => {
  const LIMIT = 50_000;

  /** The house's worst case on a match from its bets: the larger of (payouts on a side − all stakes). */
  async function liability(match: number) {
    const [row] = await sql`
      select greatest(sum(potential_win) filter (where team_id = 1), sum(potential_win) filter (where team_id = 2), 0)
             - sum(amount) as loss
      from public.bets where match_id = ${match} and status = 'placed'`;
    return Number(row.loss);
  }

  const withLiabilityLimit = (limit: number, race: () => Promise<void>) =>
    withSettings({ max_liability_per_match: limit }, race);

  it('60 simultaneous bets of 1000 on one side, limit 50,000: exactly 25 pass (each adds 2,000 to the loss)', () =>
    withLiabilityLimit(LIMIT, async () => {
      const players = await Promise.all(Array.from({ length: 10 }, () => createPlayer(6000)));
      const match = await createLiveMatch(admin);

      const { ok, errors } = await settle(
        Array.from({ length: 60 }, (_, n) =>
          request(players[n % 10], (tx) => tx`select id from app.place_bet(${match}, 1, 1000)`),
        ),
      );

      expect(ok).toBe(25);
      expect(new Set(errors)).toEqual(new Set(['BT409: No more bets on Mumbai Indians are accepted for this match']));
      expect(await liability(match)).toBe(LIMIT);
      expect(await sql`select * from app.reconcile_books()`).toEqual([]);
      expect(await sql`select * from app.reconcile_player_stakes()`).toEqual([]);
      expect(await reconcile()).toEqual([]);
    }));

  it('150 simultaneous bets of 1000 on one side, limit 200,000: exactly 100 pass, fast far from the limit, exact near it', () =>
    withLiabilityLimit(200_000, async () => {
      const players = await Promise.all(Array.from({ length: 10 }, () => createPlayer(15000)));
      const match = await createLiveMatch(admin);

      const { ok, errors } = await settle(
        Array.from({ length: 150 }, (_, n) =>
          request(players[n % 10], (tx) => tx`select id from app.place_bet(${match}, 1, 1000)`),
        ),
      );

      expect(ok).toBe(100);
      expect(new Set(errors)).toEqual(new Set(['BT409: No more bets on Mumbai Indians are accepted for this match']));
      expect(await liability(match)).toBe(200_000);
      const [{ stripes }] = await sql`
        select count(*)::int as stripes from app.match_book where match_id = ${match} and team_id = 1 and bets > 0`;
      expect(stripes).toBeGreaterThan(1);
      expect(await sql`select * from app.reconcile_books()`).toEqual([]);
      expect(await sql`select * from app.reconcile_player_stakes()`).toEqual([]);
      expect(await reconcile()).toEqual([]);
    }));

  it('small bets (fast) racing large ones (exact) on one side never take the loss past the limit', () =>
    withLiabilityLimit(200_000, async () => {
      const players = await Promise.all(Array.from({ length: 10 }, () => createPlayer(80000)));
      for (let round = 0; round < 3; round++) {
        const match = await createLiveMatch(admin);
        // unchecked, 60 × ₹1,000 and 10 × ₹20,000 on MI would put the loss should MI win at 520,000
        const { ok, errors } = await settle(
          Array.from({ length: 70 }, (_, n) => {
            const stake = n % 7 === 3 ? 20000 : 1000;
            return request(players[n % 10], (tx) => tx`select id from app.place_bet(${match}, 1, ${stake})`);
          }),
        );
        expect(errors.length).toBeGreaterThan(0);
        expect(ok + errors.length).toBe(70);
        for (const error of errors) expect(error).toMatch(/^BT409: (No more bets on Mumbai Indians|Stake too high)/);
        expect(await liability(match)).toBeLessThanOrEqual(200_000);
      }
      expect(await sql`select * from app.reconcile_books()`).toEqual([]);
      expect(await sql`select * from app.reconcile_player_stakes()`).toEqual([]);
      expect(await reconcile()).toEqual([]);
    }));

  it('a bet decided exactly waits for a fast bet still in flight, and counts it', () =>
    withLiabilityLimit(200_000, async () => {
      const [early, fast, large] = await Promise.all([createPlayer(30000), createPlayer(1000), createPlayer(80000)]);
      const match = await createLiveMatch(admin);
      await request(early, (tx) => tx`select app.place_bet(${match}, 1, 20000)`);
      await request(early, (tx) => tx`select app.place_bet(${match}, 1, 9000)`); // a loss of 58,000 should MI win

      // ₹1,000 on the fast path (60,000 + the reserve of 140,000 is the limit), its transaction kept open
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let placed!: () => void;
      const fastPlaced = new Promise<void>((resolve) => (placed = resolve));
      const fastBet = request(fast, async (tx) => {
        await tx`select app.place_bet(${match}, 1, 1000)`;
        placed();
        await held;
      });
      await fastPlaced;
      // ₹71,000 (an increase of 142,000) must count the ₹1,000 in flight: 60,000 + 142,000 passes the limit
      const largeBet = settle([request(large, (tx) => tx`select id from app.place_bet(${match}, 1, 71000)`)]);
      // the fast bet commits once the large one waits for a lock (or, were it not to wait, has finished)
      let largeDone = false;
      void largeBet.then(() => (largeDone = true));
      while (!largeDone && (await sql`select 1 from pg_locks where not granted`).length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      commit();
      await fastBet;

      expect(await largeBet).toEqual({
        ok: 0,
        errors: ['BT409: Stake too high for this match: at most ₹70,000 more can be staked on Mumbai Indians'],
      });
      expect(await liability(match)).toBe(60_000);
      expect(await sql`select * from app.reconcile_books()`).toEqual([]);
    }));

  it('90 simultaneous bets on both sides never take the loss past the limit', () =>
    withLiabilityLimit(LIMIT, async () => {
      const players = await Promise.all(Array.from({ length: 15 }, () => createPlayer(9000)));
      const match = await createLiveMatch(admin);

      // each player backs one side (a third of them CSK), six bets each: two bets on MI for each on CSK;
      // unchecked, the loss should MI win would reach 90,000
      const { ok, errors } = await settle(
        Array.from({ length: 90 }, (_, n) =>
          request(
            players[n % 15],
            (tx) => tx`select id from app.place_bet(${match}, ${(n % 15) % 3 === 0 ? 2 : 1}, 1000)`,
          ),
        ),
      );

      expect(errors.length).toBeGreaterThan(0);
      expect(ok + errors.length).toBe(90);
      for (const error of errors) expect(error).toMatch(/^BT409: (No more bets on Mumbai Indians|Stake too high)/);
      expect(await liability(match)).toBeLessThanOrEqual(LIMIT);
      const [csk] = await sql`select count(*)::int as n from public.bets where match_id = ${match} and team_id = 2`;
      expect(csk.n).toBe(30);
      expect(await sql`select * from app.reconcile_books()`).toEqual([]);
      expect(await sql`select * from app.reconcile_player_stakes()`).toEqual([]);
      expect(await reconcile()).toEqual([]);
    }));
});

describe('the price under concurrency', () => {
  const setOdds = (match: number, odds: number) =>
    request(admin, (tx) => tx`select app.set_match_odds(${match}, ${odds}, null)`);
  /** Until `wanted` sessions wait for a lock (or `done` says the waiting side finished anyway). */
  async function untilWaiting(wanted: number, done: () => boolean) {
    while (!done()) {
      const [{ n }] = await sql`select count(*)::int as n from pg_locks where not granted`;
      if (n >= wanted) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Runs `work` in a request kept open until the returned `commit` is called; resolves once `work` is done. */
  async function held(user: { id: number; role: string }, work: (tx: Tx) => Promise<unknown>) {
    let commit!: () => void;
    const release = new Promise<void>((resolve) => (commit = resolve));
    let done!: () => void;
    const worked = new Promise<void>((resolve) => (done = resolve));
    const finished = request(user, async (tx) => {
      await work(tx);
      done();
      await release;
    });
    await worked;
    return { commit, finished };
  }

  it('bets wait for a price change in flight and are decided at the new price: the old one refused, the new one taken', async () => {
    const [stale, fresh] = await Promise.all([createPlayer(5000), createPlayer(5000)]);
    const match = await createLiveMatch(admin);
    await setOdds(match, 2);

    const change = await held(admin, (tx) => tx`select app.set_match_odds(${match}, 1.50, null)`);
    let betsDone = false;
    const bets = Promise.allSettled([
      request(stale, (tx) => tx`select id from app.place_bet(${match}, 1, 1000, 2.00)`),
      request(fresh, (tx) => tx`select id from app.place_bet(${match}, 1, 1000, 1.50)`),
    ]).then((outcomes) => ((betsDone = true), outcomes));
    await untilWaiting(2, () => betsDone);
    expect(betsDone).toBe(false);
    change.commit();
    await change.finished;

    const [old, current] = await bets;
    expect(old.status === 'rejected' && `${old.reason.code}: ${old.reason.message}`).toBe('BT409: Odds have changed');
    expect(current.status).toBe('fulfilled');
    const placed = await sql`select user_id, odds::text, potential_win from public.bets where match_id = ${match}`;
    expect(placed.map((bet) => [Number(bet.user_id), bet.odds, Number(bet.potential_win)])).toEqual([
      [fresh.id, '1.50', 1500],
    ]);
    expect(await balance(stale.id)).toBe(5000);
    expect(await reconcile()).toEqual([]);
  });

  it('a price change waits for the bet in flight, which keeps the price it was taken at', async () => {
    const [early, late] = await Promise.all([createPlayer(5000), createPlayer(5000)]);
    const match = await createLiveMatch(admin);
    await setOdds(match, 2);

    const bet = await held(early, (tx) => tx`select app.place_bet(${match}, 1, 1000, 2.00)`);
    let changed = false;
    const change = setOdds(match, 1.5).then(() => (changed = true));
    await untilWaiting(1, () => changed);
    expect(changed).toBe(false);
    bet.commit();
    await Promise.all([bet.finished, change]);

    const refused = await settle([request(late, (tx) => tx`select id from app.place_bet(${match}, 1, 1000, 2.00)`)]);
    expect(refused).toEqual({ ok: 0, errors: ['BT409: Odds have changed'] });
    const [stored] = await sql`select odds::text, potential_win from public.bets where user_id = ${early.id}`;
    expect([stored.odds, Number(stored.potential_win)]).toEqual(['2.00', 2000]);
    expect(await reconcile()).toEqual([]);
  });

  it('60 bets racing 12 price changes: every bet taken is at the price it sent, every other one refused', async () => {
    const players = await Promise.all(Array.from({ length: 20 }, () => createPlayer(5000)));
    const match = await createLiveMatch(admin);
    const prices = [2, 1.5];
    await setOdds(match, prices[0]);

    const sent = Array.from({ length: 60 }, (_, n) => prices[(n * 7) % 5 < 3 ? 0 : 1]);
    const bets = sent.map((odds, n) =>
      request(players[n % 20], (tx) => tx`select id from app.place_bet(${match}, 1, 1000, ${odds})`).then(([bet]) => ({
        id: Number(bet.id),
        odds,
      })),
    );
    const changes = (async () => {
      for (let n = 1; n <= 12; n++) await setOdds(match, prices[n % 2]);
    })();
    const [outcomes] = await Promise.all([Promise.allSettled(bets), changes]);

    const taken = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [`${outcome.reason?.code}: ${outcome.reason?.message}`] : [],
    );
    expect(taken.length + refused.length).toBe(60);
    expect(new Set(refused)).toEqual(new Set(refused.length ? ['BT409: Odds have changed'] : []));
    const stored =
      await sql`select id, odds::float8 as odds, amount, potential_win from public.bets where match_id = ${match}`;
    expect(stored).toHaveLength(taken.length);
    for (const bet of stored) {
      expect(bet.odds).toBe(taken.find((one) => one.id === Number(bet.id))?.odds);
      expect(Number(bet.potential_win)).toBe(Math.round(Number(bet.amount) * bet.odds));
    }
    expect(await sql`select * from app.reconcile_books()`).toEqual([]);
    expect(await reconcile()).toEqual([]);
  });
});

describe('the book under concurrency', () => {
  it("a player's 50 simultaneous bets spread over both teams land on one side only", async () => {
    const player = await createPlayer(100_000);
    const match = await createLiveMatch(admin);
    const { ok, errors } = await settle(
      Array.from({ length: 50 }, (_, n) =>
        request(player, (tx) => tx`select id from app.place_bet(${match}, ${1 + (n % 2)}, 1000)`),
      ),
    );
    const sides =
      await sql`select distinct team_id from public.bets where user_id = ${player.id} and match_id = ${match}`;
    expect(sides).toHaveLength(1);
    const backed = Number(sides[0].team_id) === 1 ? 'Mumbai Indians' : 'Chennai Super Kings';
    expect(ok).toBe(25);
    expect(errors).toEqual(Array(25).fill(`BT409: You have already backed ${backed} in this match`));
    expect(await balance(player.id)).toBe(100_000 - ok * 1000);
    expect(await sql`select * from app.reconcile_player_stakes()`).toEqual([]);
    expect(await reconcile()).toEqual([]);
  });

  it("one admin's 20 simultaneous credits of 10,000 against a daily cap of 100,000 pass exactly 10", () =>
    withSettings({ admin_credit_per_day: 100_000 }, async () => {
      const crediting = await createAdmin();
      const player = await createPlayer(0);
      const { ok, errors } = await settle(
        Array.from({ length: 20 }, () =>
          request(crediting, (tx) => tx`select id from app.admin_adjust_wallet(${player.id}, 10000, 'racing credits')`),
        ),
      );
      expect(ok).toBe(10);
      expect(errors).toEqual(Array(10).fill('BT409: Daily credit limit reached'));
      expect(await balance(player.id)).toBe(100_000);
      expect(await reconcile()).toEqual([]);
    }));

  it('ten admins approving one unconfirmed deposit of 100,000 at once: two approvals complete it, credited once', async () => {
    const player = await createPlayer(0);
    const ref = newRef();
    const [deposit] = await request(player, (tx) => tx`select id from app.request_deposit(100000, 'upi', ${ref})`);
    const admins = await Promise.all(Array.from({ length: 10 }, () => createAdmin()));
    const answers = await Promise.allSettled(
      admins.map((approving) =>
        request(approving, (tx) => tx`select status from app.approve_transaction(${deposit.id})`),
      ),
    );
    const statuses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value[0].status] : []));
    expect(statuses.sort()).toEqual(['completed', 'pending']);
    const errors = answers.flatMap((answer) =>
      answer.status === 'rejected' ? [`${answer.reason.code}: ${answer.reason.message}`] : [],
    );
    expect(errors).toEqual(Array(8).fill('BT409: Transaction is not pending'));
    expect(await balance(player.id)).toBe(100_000);
    expect(
      await sql`select count(*)::int as n from app.transaction_approvals where transaction_id = ${deposit.id}`,
    ).toEqual([{ n: 2 }]);
    expect(await reconcile()).toEqual([]);
  });

  it("one admin's 20 simultaneous deposit approvals of 10,000 against a daily cap of 100,000 pass exactly 10", () =>
    withSettings({ admin_credit_per_day: 100_000 }, async () => {
      const approving = await createAdmin();
      const player = await createPlayer(0);
      const deposits = [];
      for (let n = 0; n < 20; n++) {
        const ref = newRef();
        const [deposit] = await request(player, (tx) => tx`select id from app.request_deposit(10000, 'upi', ${ref})`);
        deposits.push(deposit.id);
      }
      const { ok, errors } = await settle(
        deposits.map((id) => request(approving, (tx) => tx`select id from app.approve_transaction(${id})`)),
      );
      expect(ok).toBe(10);
      expect(errors).toEqual(Array(10).fill('BT409: Daily credit limit reached'));
      expect(await balance(player.id)).toBe(100_000);
      expect(await reconcile()).toEqual([]);
    }));

  it('ten registrations with one phone number at once, written ten ways: exactly one account gets it', async () => {
    const digits = `9${String(Date.now()).slice(-9)}`;
    const forms = [digits, `+91 ${digits}`, `0${digits}`, `+91-${digits.slice(0, 5)}-${digits.slice(5)}`];
    const { ok, errors } = await settle(
      Array.from({ length: 10 }, (_, n) => {
        const username = uniq('phone');
        return request(
          null,
          (tx) =>
            tx`select id from app.register_user(${username}, 'hash', 'Same Person', ${username + '@example.test'}, ${forms[n % forms.length]}, null)`,
        );
      }),
    );
    expect(ok).toBe(1);
    expect(errors).toEqual(Array(9).fill('BT409: This phone number is already in use'));
    expect(await sql`select count(*)::int as n from public.users where app.phone_key(phone) = ${digits}`).toEqual([
      { n: 1 },
    ]);
  });

  it('ten accounts adding one bank account at once: exactly one holds it', async () => {
    const players = await Promise.all(Array.from({ length: 10 }, () => createPlayer(0)));
    const number = accountNumber();
    const { ok, errors } = await settle(
      players.map((player) =>
        request(
          player,
          (tx) => tx`select id from app.add_bank_account('Same Person', ${number}, 'SBIN0001234', 'SBI')`,
        ),
      ),
    );
    expect(ok).toBe(1);
    expect(errors).toEqual(Array(9).fill('BT409: This bank account is already in use'));
    expect(await sql`select count(*)::int as n from public.bank_accounts where account_number = ${number}`).toEqual([
      { n: 1 },
    ]);
  });

  /** Two players sharing a phone number from before one account per phone number (a kept duplicate). */
  async function linkedPair(balance: number) {
    const [first, second] = await Promise.all([createPlayer(balance), createPlayer(balance)]);
    const phone = `9${String(Date.now()).slice(-6)}${String(++seq).padStart(3, '0')}`;
    await sql`update public.users set phone = ${phone} where id = ${first.id}`;
    await sql`update public.users set phone = ${phone}, phone_kept_duplicate = true where id = ${second.id}`;
    return [first, second] as const;
  }

  it("a self-exclusion racing bets on the person's other account: once one is refused, none passes", async () => {
    for (let round = 0; round < 5; round++) {
      const [excluded, other] = await linkedPair(20_000);
      const match = await createLiveMatch(admin);
      const bets = (async () => {
        const outcomes: string[] = [];
        for (let n = 0; n < 10; n++) {
          outcomes.push(
            await request(other, (tx) => tx`select app.place_bet(${match}, 1, 1000)`).then(
              () => 'placed',
              (error) => `${error.code}: ${error.message.split(':')[0]}`,
            ),
          );
        }
        return outcomes;
      })();
      const [outcomes, exclusion] = await Promise.all([
        bets,
        request(excluded, (tx) => tx`select app.self_exclude(6)`).then(() => 'excluded'),
      ]);
      expect(exclusion).toBe('excluded');
      const firstRefusal = outcomes.indexOf('BT403: Self-exclusion');
      expect(firstRefusal, 'the exclusion binds it before the last bet').toBeGreaterThanOrEqual(0);
      expect(outcomes.slice(firstRefusal)).toEqual(outcomes.slice(firstRefusal).map(() => 'BT403: Self-exclusion'));
      const [{ n }] = await sql`select count(*)::int as n from public.bets where user_id = ${other.id}`;
      expect(n).toBe(firstRefusal);
      expect(await reconcile()).toEqual([]);
    }
  });

  it('two linked players excluding themselves while a settlement credits both: no deadlock, both bound', async () => {
    for (let round = 0; round < 5; round++) {
      const [first, second] = await linkedPair(5000);
      const match = await createLiveMatch(admin);
      await request(first, (tx) => tx`select app.place_bet(${match}, 1, 1000)`);
      await request(second, (tx) => tx`select app.place_bet(${match}, 1, 1000)`);
      await request(admin, (tx) => tx`select app.declare_winner(${match}, 1)`);
      const [one, two, settling] = await Promise.allSettled([
        request(first, (tx) => tx`select app.self_exclude(6)`),
        request(second, (tx) => tx`select app.self_exclude(6)`),
        settleWorker(1),
      ]);
      expect(settling.status).toBe('fulfilled');
      // the first to start binds the other account, whose own request then asks for no longer: a 409, no deadlock
      const refusals = [one, two].flatMap((result) =>
        result.status === 'rejected' ? [`${result.reason.code}: ${result.reason.message.split(':')[0]}`] : [],
      );
      expect(refusals.length).toBeLessThan(2);
      expect(refusals).toEqual(refusals.map(() => 'BT409: Already excluded'));
      const bound = await sql`
        select u.id from public.users u
        where u.id in (${first.id}, ${second.id}) and exists (select 1 from app.running_exclusions(u.id, now()))`;
      expect(bound).toHaveLength(2);
      expect(await balance(first.id)).toBe(7000);
      expect(await reconcile()).toEqual([]);
    }
  });

  it('ten admins deciding one pending settings change at once: exactly one decision, applied once', async () => {
    const [{ before }] = await sql`select value as before from app.settings where key = 'admin_credit_per_day'`;
    const [{ change }] = await request(
      admin,
      (tx) =>
        tx`select app.update_risk_settings(${tx.json({ admin_credit_per_day: Number(before) + 1 })}) -> 'change' as change`,
    );
    const deciders = await Promise.all(Array.from({ length: 10 }, () => createAdmin()));
    const { ok, errors } = await settle(
      deciders.map((decider, n) =>
        request(decider, (tx) => tx`select app.decide_settings_change(${change.id}, ${n % 2 === 0})`),
      ),
    );
    try {
      expect(ok).toBe(1);
      expect(errors).toEqual(Array(9).fill('BT409: This change has already been decided'));
      const [decided] = await sql`select status from app.settings_changes where id = ${change.id}`;
      const decisions = await sql`
        select action from public.audit_log where target_type = 'settings_change' and target_id = ${change.id}
          and action <> 'settings.change_proposed'`;
      expect(decisions).toEqual([{ action: `settings.change_${decided.status}` }]);
      const [{ after }] = await sql`select value as after from app.settings where key = 'admin_credit_per_day'`;
      expect(Number(after)).toBe(Number(before) + (decided.status === 'approved' ? 1 : 0));
    } finally {
      await request(admin, (tx) => tx`select app.update_risk_settings(${tx.json({ admin_credit_per_day: before })})`);
    }
  });

  it('two settlements paying the same referrer at once stay within its monthly cap of 1', () =>
    withSettings({ referral_bonuses_per_month: 1 }, async () => {
      const referrer = await createPlayer(0);
      const [{ referral_code: code }] = await sql`select referral_code from public.users where id = ${referrer.id}`;
      const matches: number[] = [];
      for (let n = 0; n < 2; n++) {
        const username = uniq('referred');
        const [u] = await request(
          null,
          (tx) =>
            tx`select id from app.register_user(${username}, 'hash', 'Referred Player', ${username + '@example.test'}, null, ${code})`,
        );
        const referred = { id: Number(u.id), role: 'user' };
        const ref = newRef();
        await request(referred, (tx) => tx`select app.request_deposit(1000, 'upi', ${ref})`);
        await request(null, (tx) => tx`select app.complete_deposit(${ref}, 1000, 'success', ${'GW-' + ref})`);
        const match = await createLiveMatch(admin);
        await request(referred, (tx) => tx`select app.place_bet(${match}, 1, 1000)`);
        matches.push(match);
      }
      const { errors } = await settle(
        matches.map((match) => request(admin, (tx) => tx`select app.declare_winner(${match}, 2)`)),
      );
      expect(errors).toEqual([]);
      await Promise.all([settleWorker(1), settleWorker(1)]); // two workers, one batch each
      expect(await balance(referrer.id)).toBe(100);
      expect(await reconcile()).toEqual([]);
    }));

  it('a self-exclusion racing an admin approval of the pending deposit: approved before, or never', async () => {
    for (let round = 0; round < 10; round++) {
      const player = await createPlayer(0);
      const ref = newRef();
      const [deposit] = await request(player, (tx) => tx`select id from app.request_deposit(1000, 'upi', ${ref})`);
      const [approval, exclusion] = await Promise.allSettled([
        request(admin, (tx) => tx`select status from app.approve_transaction(${deposit.id})`),
        request(player, (tx) => tx`select app.self_exclude(6)`),
      ]);
      expect(exclusion.status, 'the exclusion always starts').toBe('fulfilled');
      const [row] = await sql`select status from public.transactions where id = ${deposit.id}`;
      if (approval.status === 'fulfilled') {
        expect(row.status).toBe('completed');
        expect(await balance(player.id)).toBe(1000);
      } else {
        expect(`${approval.reason.code}: ${approval.reason.message}`).toMatch(
          /^BT409: (This player is self-excluded|Transaction is not pending)$/,
        );
        expect(['failed', 'pending']).toContain(row.status);
        expect(await balance(player.id)).toBe(0);
      }
      expect(await reconcile()).toEqual([]);
    }
  });
});

describe('settlement as a job', () => {
  async function matchWithBets(players: number) {
    const match = await createLiveMatch(admin);
    const bettors = await Promise.all(Array.from({ length: players }, () => createPlayer(5000)));
    await Promise.all(
      bettors.map((player, n) => request(player, (tx) => tx`select app.place_bet(${match}, ${1 + (n % 2)}, 1000)`)),
    );
    return { match, bettors };
  }

  /** `staked`: what each bettor has staked since on other matches. */
  async function expectSettledOnce(match: number, bettors: { id: number }[], staked = 0) {
    const [left] =
      await sql`select count(*)::int as n from public.bets where match_id = ${match} and status = 'placed'`;
    expect(left.n).toBe(0);
    const [ledger] = await sql`
      select count(*)::int as rows, count(distinct t.reference_id)::int as bets from public.transactions t
      join public.bets b on t.reference_id = 'BET-' || b.id and t.type = 'bet_won' where b.match_id = ${match}`;
    expect(ledger).toEqual({ rows: bettors.length / 2, bets: bettors.length / 2 });
    for (const [n, player] of bettors.entries())
      expect(await balance(player.id)).toBe((n % 2 === 0 ? 5000 - 1000 + 3000 : 4000) - staked);
    const [m] =
      await sql`select settlement_settled::int as settled, settlement_total::int as total from public.matches where id = ${match}`;
    expect(m).toEqual({ settled: bettors.length, total: bettors.length });
    expect(await reconcile()).toEqual([]);
  }

  it('two workers settle one match side by side, each bet once, and the ledger reconciles all along', async () => {
    const { match, bettors } = await matchWithBets(40);
    await request(admin, (tx) => tx`select app.declare_winner(${match}, 1)`);
    let done = false;
    const workers = Promise.all([settleWorker(3), settleWorker(3)]).finally(() => (done = true));
    const unreconciled: unknown[] = [];
    while (!done) unreconciled.push(...(await reconcile())); // in the middle of the run too
    await workers;
    expect(unreconciled).toEqual([]);
    const [batches] = await sql`
      select count(*)::int as n, count(distinct first_user_id)::int as ranges from app.settlement_batches where match_id = ${match}`;
    expect(batches.n).toBe(batches.ranges);
    expect(batches.n).toBeGreaterThan(1);
    await expectSettledOnce(match, bettors);
  });

  it('two workers settle a match while all its players bet on another one: no deadlock, every bet taken and settled once', async () => {
    // a batch locks the players it credits only in its posting, after marking its bets: the players' own bets,
    // which lock them first, must still neither deadlock with it nor be lost
    const { match, bettors } = await matchWithBets(40);
    const other = await createLiveMatch(admin);
    await request(admin, (tx) => tx`select app.declare_winner(${match}, 1)`);
    const [, betting] = await Promise.all([
      Promise.all([settleWorker(3), settleWorker(3)]),
      settle(
        bettors.map((player, n) => request(player, (tx) => tx`select app.place_bet(${other}, ${1 + (n % 2)}, 1000)`)),
      ),
    ]);
    expect(betting).toEqual({ ok: bettors.length, errors: [] });
    await expectSettledOnce(match, bettors, 1000);
  });

  it('a worker cut off in the middle of a batch loses nothing: the sweep settles every bet once', async () => {
    const { match, bettors } = await matchWithBets(20);
    await request(admin, (tx) => tx`select app.declare_winner(${match}, 1)`);
    // one batch settled and committed, as a worker would
    await sql`select app.claim_settlement_batch(${match}, 4)`;
    await sql`select app.settle_batch(${match})`;
    // the next batch is claimed, and its worker dies before it commits
    await sql`select app.claim_settlement_batch(${match}, 4)`;
    // a connection of its own (not the pool's), since it dies
    const worker = postgres(url!, { max: 1, onnotice: () => {} });
    const [{ pid }] = await worker`select pg_backend_pid() as pid`;
    await worker`begin`;
    expect((await worker`select app.settle_batch(${match}) as n`)[0].n).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(${pid})`;
    await worker`commit`.catch(() => {});
    await worker.end({ timeout: 0 });

    const [run] = await sql`
      select count(*) filter (where settled_at is null)::int as unsettled, count(*)::int as batches
      from app.settlement_batches where match_id = ${match}`;
    expect(run).toEqual({ unsettled: 1, batches: 2 });
    expect(await reconcile(), 'in the middle of the run, after the crash').toEqual([]);

    await settleWorker(4); // the sweep
    await expectSettledOnce(match, bettors);
    const [finished] = await sql`select finished_at from app.settlement_runs where match_id = ${match}`;
    expect(finished.finished_at).not.toBeNull();
  });
});
