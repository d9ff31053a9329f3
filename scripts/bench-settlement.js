// The settlement part of `npm run bench`: a match carrying 100,000 bets by 100,000 players is declared
// (and another abandoned) through the API, and the server's workers settle it in batches. It measures the
// declaration's answer, the time until the last bet is settled (against the settlement floor: the same rows
// written in one transaction with no rule), and, while it settles, 16 players of that match betting on
// another live match at a player's pace (one bet every 320 ms each: their rows are locked only while their
// own batch runs). Then a match of 100,000 bets by 300 players (334 each) is declared: its time against the
// floor of the same shape. BENCH_SETTLE_MILLION=1 adds a match of 1,000,000 bets: its time against the
// 100,000's, and the server processes' memory meanwhile.
// After each part: app.reconcile() empty and one ledger row per settled bet that moves money.
import { addPlayersWithBets } from './lib/bulk-data.js';
import { cpuMeter } from './lib/cpu.js';
import { treeRss } from './lib/memory.js';

// (numbered after the 64 players of the bets part, whose numbers end up in deposit references)
const BETTORS = 16; // each funded with ₹3,00,000: more than they can stake while a run settles
/** A bettor's pace: one bet started every PACE_MS (a player tapping fast, not a saturating load). */
const PACE_MS = 320;
/** The many-bets-per-player shape: ~300 players staking 100,000 bets between them. */
export const FEW_PLAYERS = 300;
const POLL_MS = 20;

const quantile = (sorted, q) =>
  sorted.length ? Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1)) : 0;

/** Resolves once match `matchId`'s settlement run is finished. */
async function settledRun(sql, matchId) {
  for (;;) {
    const [run] = await sql`select finished_at from app.settlement_runs where match_id = ${matchId}`;
    if (run?.finished_at) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Checks the ledger after a settlement: reconciled, and exactly one money row per bet that won or was refunded. */
async function checkLedger(sql, matchId) {
  const [row] = await sql`
    select (select count(*) from app.reconcile())::int as unreconciled,
           (select count(*) from public.bets where match_id = ${matchId} and status in ('won', 'cancelled'))::int as paid_bets,
           (select count(*) from public.transactions t join public.bets b on t.reference_id = 'BET-' || b.id
            where b.match_id = ${matchId} and t.type in ('bet_won', 'bet_refund'))::int as money_rows,
           (select count(*) from public.bets where match_id = ${matchId} and status = 'placed')::int as left_placed`;
  const ok = row.unreconciled === 0 && row.paid_bets === row.money_rows && row.left_placed === 0;
  if (!ok) process.exitCode = 1;
  return ok ? 'reconciled, one ledger row per paid bet, none left placed' : `MISMATCH ${JSON.stringify(row)}`;
}

/**
 * The floor's three statements on our own tables, for match `matchId` won by `winner`: a ledger row per
 * winning bet, the winners' wallets credited from one aggregate, every bet's status, in one transaction that
 * is rolled back (then vacuumed away, as autovacuum would). What our tables themselves cost (their indexes,
 * foreign keys, the ledger's activity trigger, the users' width) with none of the settlement's rules:
 * between the floor and the settlement. Milliseconds.
 */
async function bareWrites(sql, matchId, winner) {
  let ms;
  await sql
    .begin(async (tx) => {
      const started = performance.now();
      await tx`
        insert into public.transactions (user_id, amount, type, status, reference_id)
        select user_id, potential_win, 'bet_won', 'completed', 'BET-' || id
        from public.bets where match_id = ${matchId} and status = 'placed' and team_id = ${winner}`;
      await tx`
        update public.users u set wallet_balance = u.wallet_balance + c.total
        from (select user_id, sum(potential_win) as total from public.bets
              where match_id = ${matchId} and status = 'placed' and team_id = ${winner}
              group by user_id) c
        where u.id = c.user_id`;
      await tx`
        update public.bets set status = case when team_id = ${winner} then 'won' else 'lost' end, settled_at = now()
        where match_id = ${matchId} and status = 'placed'`;
      ms = performance.now() - started;
      throw ROLLBACK;
    })
    .catch((error) => {
      if (error !== ROLLBACK) throw error;
    });
  await sql`vacuum analyze`;
  return ms;
}
const ROLLBACK = new Error('rolled back on purpose');

/**
 * Declares (or abandons) a new live match carrying `bets` bets through the API and times its answer and the
 * run until the last bet is settled. `during` runs while it settles and gets a function telling whether the
 * run is done.
 */
async function settleMatch(parts, { bets, betsPerPlayer = 1, action, bettors = [], during }) {
  const winner = 3;
  const { sql, api, admin, request } = parts;
  const match = JSON.parse(
    (
      await request(api.base, 'POST', '/api/admin/matches', {
        cookie: admin,
        body: { team1_id: winner, team2_id: 4, start_time: new Date().toISOString(), match_type: 't20' },
      })
    ).text,
  );
  await request(api.base, 'PATCH', `/api/admin/matches/${match.id}/start`, { cookie: admin });
  // half the bulk players, our bettors (so their rows fall in batches in the middle and at the end), the rest
  const tag = `${action}${match.id}`;
  const players = Math.ceil(bets / betsPerPlayer);
  await addPlayersWithBets(sql, { matchId: match.id, players: Math.ceil(players / 2), betsPerPlayer, tag: `${tag}a` });
  for (const [n, bettor] of bettors.entries()) {
    if (n === bettors.length / 2)
      await addPlayersWithBets(sql, {
        matchId: match.id,
        players: Math.floor(players / 2),
        betsPerPlayer,
        tag: `${tag}b`,
      });
    const bet = await request(api.base, 'POST', '/api/bets', {
      cookie: bettor,
      body: { match_id: match.id, team_id: winner, amount: 1000 },
    });
    if (bet.status !== 201) throw new Error(`bettor's bet: ${bet.status} ${bet.text}`);
  }
  if (bettors.length === 0)
    await addPlayersWithBets(sql, {
      matchId: match.id,
      players: Math.floor(players / 2),
      betsPerPlayer,
      tag: `${tag}b`,
    });
  await sql`vacuum analyze`; // as autovacuum would have by then
  const bareMs = action === 'declare-winner' ? await bareWrites(sql, match.id, winner) : undefined;

  const cpu = await cpuMeter(sql, api.pids);
  const started = performance.now();
  const answer = await request(api.base, 'PATCH', `/api/admin/matches/${match.id}/${action}`, {
    cookie: admin,
    body: action === 'declare-winner' ? { winning_team_id: winner } : undefined,
  });
  const answerMs = performance.now() - started;
  if (answer.status !== 200) throw new Error(`${action}: ${answer.status} ${answer.text}`);
  let done = false;
  const alongside = during?.(() => done);
  await settledRun(sql, match.id);
  const settledMs = performance.now() - started;
  const used = await cpu.stop();
  done = true;
  return {
    matchId: match.id,
    bets: players * betsPerPlayer + bettors.length,
    answerMs,
    settledMs,
    bareMs,
    cpu: used,
    alongside: await alongside,
  };
}

/**
 * `bettors` players betting ₹1,000 on `matchId` until `finished()`, each starting a bet every PACE_MS (at
 * once when the one before took longer): latencies.
 */
async function betUntil(parts, bettors, matchId, finished) {
  const { api, request } = parts;
  const latencies = [];
  let failed = 0;
  await Promise.all(
    bettors.map(async (cookie, n) => {
      // the players' first bets spread over one pace, as players' taps are
      let next = performance.now() + (n * PACE_MS) / bettors.length;
      while (!finished()) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        if (finished()) break;
        next += PACE_MS;
        const begin = performance.now();
        const answer = await request(api.base, 'POST', '/api/bets', {
          cookie,
          body: { match_id: matchId, team_id: 1 + (n % 2), amount: 1000 },
        }).catch(() => ({ status: 0 }));
        latencies.push(performance.now() - begin);
        if (answer.status !== 201) failed++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { bets: latencies.length, failed, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

/** Samples the server processes' resident memory every second until `finished()`. */
async function memoryUntil(pids, finished) {
  const samples = [];
  while (!finished()) {
    samples.push(pids.reduce((total, pid) => total + treeRss(pid), 0));
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return samples;
}

/**
 * The part itself. `parts`: { sql, api (base, pids), admin (cookie), request, newPlayer, log, bets, floor,
 * betCpu } where `floor` is the settlement floor's { declare, abandon, declareFew } milliseconds for `bets`
 * bets (declareFew: by FEW_PLAYERS players) and `betCpu` the { server, database } CPU milliseconds of one bet
 * (the bets part). Resolves with the lines to print and the figures of the summary.
 */
export async function benchSettlement(parts) {
  const { sql, api, admin, request, newPlayer, log, bets, floor, betCpu } = parts;
  const other = JSON.parse(
    (
      await request(api.base, 'POST', '/api/admin/matches', {
        cookie: admin,
        body: { team1_id: 1, team2_id: 2, start_time: new Date().toISOString(), match_type: 't20' },
      })
    ).text,
  );
  await request(api.base, 'PATCH', `/api/admin/matches/${other.id}/start`, { cookie: admin });
  const bettors = await Promise.all(Array.from({ length: BETTORS }, (_, n) => newPlayer(api.base, 64 + n, 3)));

  log(
    `settlement: declare-winner on ${bets.toLocaleString('en')} bets, ${BETTORS} of its players betting on another match …`,
  );
  const declared = await settleMatch(parts, {
    bets,
    action: 'declare-winner',
    bettors,
    during: (finished) => betUntil(parts, bettors, other.id, finished),
  });
  const declaredLedger = await checkLedger(sql, declared.matchId);
  log(`settlement: abandon on ${bets.toLocaleString('en')} bets …`);
  const abandoned = await settleMatch(parts, { bets, action: 'abandon' });
  const abandonedLedger = await checkLedger(sql, abandoned.matchId);
  const betsPerPlayer = Math.ceil(bets / FEW_PLAYERS);
  log(
    `settlement: declare-winner on ${(betsPerPlayer * FEW_PLAYERS).toLocaleString('en')} bets by ${FEW_PLAYERS} players …`,
  );
  const few = await settleMatch(parts, { bets: betsPerPlayer * FEW_PLAYERS, betsPerPlayer, action: 'declare-winner' });
  const fewLedger = await checkLedger(sql, few.matchId);

  const lines = [
    `settlement of ${bets.toLocaleString('en')} bets by as many players (2 cores, the server's workers in batches):`,
    `  declare-winner answered in ${Math.round(declared.answerMs)} ms (target ≤ 300), last bet settled after ` +
      `${Math.round(declared.settledMs)} ms = ${(declared.settledMs / floor.declare).toFixed(2)} × its floor (${Math.round(floor.declare)} ms, target ≤ 1.0); ${declaredLedger}`,
    `  abandon answered in ${Math.round(abandoned.answerMs)} ms, last stake refunded after ${Math.round(abandoned.settledMs)} ms = ` +
      `${(abandoned.settledMs / floor.abandon).toFixed(2)} × its floor (${Math.round(floor.abandon)} ms); ${abandonedLedger}`,
    `  meanwhile ${BETTORS} players of that match betting on another match, one bet every ${PACE_MS} ms each: ${declared.alongside.bets} bets, ` +
      `${declared.alongside.failed} refused or failed, p50 ${declared.alongside.p50} ms, p99 ${declared.alongside.p99} ms (target ≤ 100, none failed)`,
    `  ${(betsPerPlayer * FEW_PLAYERS).toLocaleString('en')} bets by ${FEW_PLAYERS} players: declare-winner answered in ${Math.round(few.answerMs)} ms, ` +
      `last bet settled after ${Math.round(few.settledMs)} ms = ${(few.settledMs / floor.declareFew).toFixed(2)} × its floor ` +
      `(${Math.round(floor.declareFew)} ms; targets ≤ 1,500 ms, ≤ 1.0); ${fewLedger}`,
    `  the floor's writes on our own tables (no rule; one transaction, rolled back): ${Math.round(declared.bareMs)} ms = ` +
      `${(declared.bareMs / floor.declare).toFixed(2)} × the floor by as many players, ${Math.round(few.bareMs)} ms = ` +
      `${(few.bareMs / floor.declareFew).toFixed(2)} × by ${FEW_PLAYERS} players`,
  ];
  // The declaration's run shares its window with the bettors: their bets' CPU (at a bet's cost) is taken out.
  const perBet = (used, otherBets = 0) =>
    ['database', 'server']
      .map((part) => `${part} ${(((used[part] * 1000 - otherBets * betCpu[part]) / bets) * 1000).toFixed(0)} µs`)
      .join(', ');
  lines.push(
    `  CPU per settled bet: declare-winner ${perBet(declared.cpu, declared.alongside.bets)} ` +
      `(the bettors' ${declared.alongside.bets} bets taken out at a bet's cost); abandon ${perBet(abandoned.cpu)}`,
  );
  if (declared.alongside.failed > 0) process.exitCode = 1;
  const figures = { declared, abandoned, few, floor };

  if (process.env.BENCH_SETTLE_MILLION) {
    const million = bets * 10;
    log(`settlement: declare-winner on ${million.toLocaleString('en')} bets …`);
    const big = await settleMatch(parts, {
      bets: million,
      action: 'declare-winner',
      during: (finished) => memoryUntil(api.pids, finished),
    });
    const memory = big.alongside;
    lines.push(
      `  ${million.toLocaleString('en')} bets: last bet settled after ${Math.round(big.settledMs)} ms = ` +
        `${(big.settledMs / declared.settledMs).toFixed(2)} × the ${bets.toLocaleString('en')} (target ≤ 10); servers' memory ` +
        `${Math.round(memory[0] ?? 0)} → ${Math.round(memory.at(-1) ?? 0)} MiB (peak ${Math.round(Math.max(0, ...memory))}); ` +
        `${await checkLedger(sql, big.matchId)}`,
    );
  }
  return { lines, figures };
}
