// The SPA and the API validate with src/domain (limits.ts, messages.ts); the database enforces the same
// rules again. This proves the two agree: each SQL function accepts the domain's limit, refuses one past
// it, and refuses with the domain's message text; each list of values the domain offers is the one the
// database's constraint allows, and each text limit is its column's width.
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_HOLDER_MIN,
  ACCOUNT_NUMBER_MIN,
  BANK_NAME_MIN,
  BET_STATUSES,
  IFSC_LENGTH,
  LONG_TEXT,
  MATCH_OVERS,
  MATCH_STATUSES,
  MATCH_TYPES,
  MAX_ADJUSTMENT,
  MAX_DEPOSIT,
  MAX_NOTES,
  MAX_WITHDRAWAL,
  MIN_BET,
  MIN_DEPOSIT,
  MIN_WITHDRAWAL,
  NAME_MIN,
  QUALIFYING_DEPOSIT,
  SHORT_TEXT,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  USER_ROLES,
  USER_STATUSES,
  USERNAME_MIN,
} from '../../src/domain/limits.ts';
import { messages } from '../../src/domain/messages.ts';
import { INNINGS_OVERS, ODDS_RANGE, potentialWin, priceMessages, SCORE_PATTERN } from '../../src/domain/price.ts';
import { matchOddsSchema, updateLiveSchema } from '../../src/domain/schemas.ts';
import {
  MAX_REFERRAL_BONUSES_PER_MONTH,
  MAX_RISK_AMOUNT,
  STALE_SECONDS,
  riskMessages,
  riskSettingsUpdateSchema,
} from '../../src/domain/risk.ts';
import {
  DEFAULT_REALITY_CHECK_MINUTES,
  LIMIT_PERIODS,
  LIMIT_RAISE_DELAY_HOURS,
  MAX_DEPOSIT_LIMIT,
  MIN_DEPOSIT_LIMIT,
  REALITY_CHECK_MINUTES,
  SELF_EXCLUSION_MONTHS,
  TIMEOUT_DAYS,
  protectionMessages,
} from '../../src/domain/protection.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required (a migrated database)');
const sql = postgres(url, { max: 1, onnotice: () => {} });
afterAll(() => sql.end());

type Tx = postgres.TransactionSql;
const Rollback = Symbol('rollback');
const tag = `${Date.now().toString(36)}${process.pid}`;

/** Runs `check` in a transaction that is always rolled back: the test leaves no data behind. */
async function inRolledBackTransaction(check: (tx: Tx) => Promise<void>) {
  await sql
    .begin(async (tx) => {
      await check(tx);
      throw Rollback;
    })
    .catch((error) => {
      if (error !== Rollback) throw error;
    });
}

async function as(tx: Tx, user: { id: number; role: string } | null) {
  const claims = user ? JSON.stringify({ role: 'authenticated', user_id: user.id, app_role: user.role }) : '';
  await tx`select set_config('request.jwt.claims', ${claims}, true)`;
  await tx`set local role service_role`;
}

/** The error a call raises (inside a savepoint, so the transaction goes on), or null when it succeeds. */
async function failure(tx: Tx, call: (sp: Tx) => Promise<unknown>) {
  try {
    await tx.savepoint((sp) => call(sp as unknown as Tx));
    return null;
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
}

async function fundedPlayer(tx: Tx, name: string, amount: number) {
  await as(tx, null);
  const [{ id }] =
    await tx`select id from app.register_user(${name + tag}, 'hash', 'Limits Player', ${`${name}${tag}@example.test`}, null, null)`;
  const player = { id: Number(id), role: 'user' };
  for (let left = amount, n = 0; left > 0; left -= MAX_DEPOSIT, n++) {
    const reference = `REF-${Date.now()}${n}-LIMT`;
    await as(tx, player);
    await tx`select app.request_deposit(${Math.min(left, MAX_DEPOSIT)}, 'upi', ${reference})`;
    await as(tx, null);
    await tx`select app.complete_deposit(${reference}, ${Math.min(left, MAX_DEPOSIT)}, 'success', ${'GW-' + reference})`;
  }
  return player;
}

describe('database limits agree with src/domain', () => {
  it('deposits: the domain minimum and maximum pass, one past each fails with the domain message', () =>
    inRolledBackTransaction(async (tx) => {
      const player = await fundedPlayer(tx, 'dep', 0);
      await as(tx, player);
      const deposit = (amount: number, suffix: string) => (sp: Tx) =>
        sp`select app.request_deposit(${amount}, 'upi', ${`REF-${Date.now()}-${suffix}`})`;
      expect(await failure(tx, deposit(MIN_DEPOSIT, 'AAAA'))).toBeNull();
      expect(await failure(tx, deposit(MAX_DEPOSIT, 'BBBB'))).toBeNull();
      expect(await failure(tx, deposit(MIN_DEPOSIT - 1, 'CCCC'))).toEqual({
        code: 'BT400',
        message: messages.depositMin,
      });
      expect(await failure(tx, deposit(MAX_DEPOSIT + 1, 'DDDD'))).toEqual({
        code: 'BT400',
        message: messages.depositMax,
      });
    }));

  it('bets: the domain minimum passes, one less fails with the domain message', () =>
    inRolledBackTransaction(async (tx) => {
      const player = await fundedPlayer(tx, 'bet', MIN_BET * 2);
      await as(tx, null);
      const [{ id: adminId }] =
        await tx`select id from app.create_admin(${'limits_admin' + tag}, 'hash', 'Admin', null)`;
      await as(tx, { id: Number(adminId), role: 'admin' });
      const [{ id: matchId }] = await tx`select id from app.create_match(1, 2, now())`;
      await as(tx, player);
      const bet = (amount: number) => (sp: Tx) => sp`select app.place_bet(${matchId}, 1, ${amount})`;
      expect(await failure(tx, bet(MIN_BET))).toBeNull();
      expect(await failure(tx, bet(MIN_BET - 1))).toEqual({ code: 'BT400', message: messages.betMin });
    }));

  it('withdrawals: the domain minimum and maximum pass, one past each fails with the domain message', () =>
    inRolledBackTransaction(async (tx) => {
      const player = await fundedPlayer(tx, 'wd', MAX_WITHDRAWAL * 2);
      await as(tx, player);
      const [{ id: accountId }] =
        await tx`select id from app.add_bank_account('Limits Player', ${String(Date.now())}, 'HDFC0001234', 'HDFC Bank')`;
      const withdraw = (amount: number) => (sp: Tx) => sp`select app.request_withdrawal(${amount}, ${accountId})`;
      expect(await failure(tx, withdraw(MIN_WITHDRAWAL))).toBeNull();
      expect(await failure(tx, withdraw(MAX_WITHDRAWAL))).toBeNull();
      expect(await failure(tx, withdraw(MIN_WITHDRAWAL - 1))).toEqual({
        code: 'BT400',
        message: messages.withdrawalMin,
      });
      expect(await failure(tx, withdraw(MAX_WITHDRAWAL + 1))).toEqual({
        code: 'BT400',
        message: messages.withdrawalMax,
      });
    }));

  it('admin adjustments: the domain maximum and note length pass, one past each fails with the domain message', () =>
    inRolledBackTransaction(async (tx) => {
      const player = await fundedPlayer(tx, 'adj', 0);
      await as(tx, null);
      const [{ id: adminId }] =
        await tx`select id from app.create_admin(${'limits_admin2' + tag}, 'hash', 'Admin', null)`;
      await as(tx, { id: Number(adminId), role: 'admin' });
      const adjust = (amount: number, notes: string) => (sp: Tx) =>
        sp`select app.admin_adjust_wallet(${player.id}, ${amount}, ${notes})`;
      expect(await failure(tx, adjust(MAX_ADJUSTMENT, 'x'.repeat(MAX_NOTES)))).toBeNull();
      expect(await failure(tx, adjust(MAX_ADJUSTMENT + 1, 'ok'))).toEqual({
        code: 'BT400',
        message: messages.adjustmentMax,
      });
      expect(await failure(tx, adjust(0, 'ok'))).toEqual({ code: 'BT400', message: messages.adjustmentMin });
      expect(await failure(tx, adjust(1, 'x'.repeat(MAX_NOTES + 1)))).toEqual({
        code: 'BT400',
        message: messages.notesMax,
      });
      expect(await failure(tx, adjust(1, ''))).toEqual({ code: 'BT400', message: messages.notesRequired });
    }));

  it('house-risk settings: the domain bounds pass, one past each fails with the domain message, in both places', () =>
    inRolledBackTransaction(async (tx) => {
      await as(tx, null);
      const [{ id: adminId }] =
        await tx`select id from app.create_admin(${'limits_admin3' + tag}, 'hash', 'Admin', null)`;
      await as(tx, { id: Number(adminId), role: 'admin' });
      const update = (changes: Record<string, unknown>) => (sp: Tx) =>
        sp`select app.update_risk_settings(${sp.json(changes as postgres.JSONValue)})`;
      const bounds = {
        max_stake_per_bet: MIN_BET,
        max_stake_per_player_match: MAX_RISK_AMOUNT,
        max_liability_per_match: 0,
        betting_close_over: MATCH_OVERS,
        betting_pre_match_only: false,
        live_feed_stale_seconds: STALE_SECONDS.min,
        referral_bonuses_per_month: MAX_REFERRAL_BONUSES_PER_MONTH,
        adjustment_review_amount: MAX_ADJUSTMENT,
        admin_credit_per_day: MAX_RISK_AMOUNT,
        default_odds: ODDS_RANGE.min,
      };
      expect(riskSettingsUpdateSchema.safeParse(bounds).success).toBe(true);
      expect(await failure(tx, update(bounds))).toBeNull();
      const otherBounds = {
        live_feed_stale_seconds: STALE_SECONDS.max,
        referral_bonuses_per_month: 0,
        adjustment_review_amount: 1,
        admin_credit_per_day: 0,
        default_odds: ODDS_RANGE.max,
      };
      expect(riskSettingsUpdateSchema.safeParse(otherBounds).success).toBe(true);
      expect(await failure(tx, update(otherBounds))).toBeNull();
      expect(await failure(tx, update({ live_feed_stale_seconds: null }))).toBeNull();
      const refused: [Record<string, unknown>, string][] = [
        [{ max_stake_per_bet: MIN_BET - 1 }, riskMessages.maxStakePerBet],
        [{ max_stake_per_bet: MAX_RISK_AMOUNT + 1 }, riskMessages.maxStakePerBet],
        [{ max_stake_per_player_match: MIN_BET - 1 }, riskMessages.maxStakePerPlayerMatch],
        [{ max_liability_per_match: -1 }, riskMessages.maxLiabilityPerMatch],
        [{ max_liability_per_match: MAX_RISK_AMOUNT + 1 }, riskMessages.maxLiabilityPerMatch],
        [{ betting_close_over: MATCH_OVERS + 0.1 }, riskMessages.bettingCloseOver],
        [{ betting_close_over: 10.6 }, riskMessages.bettingCloseOver],
        [{ betting_pre_match_only: 'no' }, riskMessages.bettingPreMatchOnly],
        [{ live_feed_stale_seconds: STALE_SECONDS.min - 1 }, riskMessages.liveFeedStaleSeconds],
        [{ live_feed_stale_seconds: STALE_SECONDS.max + 1 }, riskMessages.liveFeedStaleSeconds],
        [{ live_feed_stale_seconds: 60.5 }, riskMessages.liveFeedStaleSeconds],
        [{ referral_bonuses_per_month: -1 }, riskMessages.referralBonusesPerMonth],
        [{ referral_bonuses_per_month: MAX_REFERRAL_BONUSES_PER_MONTH + 1 }, riskMessages.referralBonusesPerMonth],
        [{ adjustment_review_amount: 0 }, riskMessages.adjustmentReviewAmount],
        [{ adjustment_review_amount: MAX_ADJUSTMENT + 1 }, riskMessages.adjustmentReviewAmount],
        [{ admin_credit_per_day: -1 }, riskMessages.adminCreditPerDay],
        [{ admin_credit_per_day: MAX_RISK_AMOUNT + 1 }, riskMessages.adminCreditPerDay],
        [{ default_odds: 1 }, riskMessages.defaultOdds],
        [{ default_odds: ODDS_RANGE.max + 0.01 }, riskMessages.defaultOdds],
        [{ default_odds: 1.855 }, riskMessages.defaultOdds],
      ];
      for (const [changes, message] of refused) {
        expect(riskSettingsUpdateSchema.safeParse(changes).error?.issues[0].message).toBe(message);
        expect(await failure(tx, update(changes))).toEqual({ code: 'BT400', message });
      }
    }));

  it("prices: the domain's bounds, messages and potential wins are the database's", () =>
    inRolledBackTransaction(async (tx) => {
      const player = await fundedPlayer(tx, 'odds', 100_000);
      await as(tx, null);
      const [{ id: adminId }] =
        await tx`select id from app.create_admin(${'limits_admin5' + tag}, 'hash', 'Admin', null)`;
      const admin = { id: Number(adminId), role: 'admin' };
      await as(tx, admin);
      const [{ id: matchId }] = await tx`select id from app.create_match(1, 2, now())`;
      const price = (odds: { team1_odds?: number; team2_odds?: number }) => (sp: Tx) =>
        sp`select app.set_match_odds(${matchId}, ${odds.team1_odds ?? null}, ${odds.team2_odds ?? null})`;
      for (const odds of [{ team1_odds: ODDS_RANGE.min, team2_odds: ODDS_RANGE.max }, { team2_odds: 2.5 }]) {
        expect(matchOddsSchema.safeParse(odds).success).toBe(true);
        expect(await failure(tx, price(odds))).toBeNull();
      }
      const refused: [{ team1_odds?: number; team2_odds?: number }, string][] = [
        [{ team1_odds: 1 }, priceMessages.oddsRange],
        [{ team2_odds: ODDS_RANGE.max + 0.01 }, priceMessages.oddsRange],
        [{ team1_odds: 1.855 }, priceMessages.oddsDecimals],
        [{}, priceMessages.oddsMissing],
      ];
      for (const [odds, message] of refused) {
        expect(matchOddsSchema.safeParse(odds).error?.issues[0].message).toBe(message);
        expect(await failure(tx, price(odds))).toEqual({ code: 'BT400', message });
      }

      // potential wins the slip shows are the ones the database stores, halves and floating point included
      const cases: [number, number][] = [
        [1010, 1.05],
        [1001, 1.5],
        [1003, 1.15],
        [1999, 1.01],
        [1001, 1.85],
        [1234, 2.35],
        [1005, 99.99],
        [1001, 100],
      ];
      for (const [amount, odds] of cases) {
        await as(tx, admin);
        await tx`select app.set_match_odds(${matchId}, ${odds}, null)`;
        await as(tx, player);
        const [bet] = await tx`select potential_win from app.place_bet(${matchId}, 1, ${amount}, ${odds})`;
        expect([amount, odds, Number(bet.potential_win)]).toEqual([amount, odds, potentialWin(amount, odds)]);
      }
    }));

  it("live scores and innings: the domain's score format and overs are the database's", () =>
    inRolledBackTransaction(async (tx) => {
      for (const score of [
        '145/3',
        '0/0',
        '9999/10',
        '1/10',
        'abc',
        '150/11',
        '145',
        '/3',
        '145/-1',
        '12345/1',
        '1/3/4',
      ]) {
        const [{ runs }] = await tx`select (app.score_parts(${score})).runs`;
        expect([score, runs !== null]).toEqual([score, SCORE_PATTERN.test(score)]);
      }
      for (const type of MATCH_TYPES) {
        const [{ overs }] = await tx`select app.innings_overs(${type}) as overs`;
        expect([type, overs]).toEqual([type, INNINGS_OVERS[type]]);
      }
      await as(tx, null);
      const [{ id: adminId }] =
        await tx`select id from app.create_admin(${'limits_admin6' + tag}, 'hash', 'Admin', null)`;
      await as(tx, { id: Number(adminId), role: 'admin' });
      const [{ id: matchId }] = await tx`select id from app.create_match(1, 2, now())`;
      await tx`select app.start_match(${matchId})`;
      for (const score of ['abc', '150/11']) {
        expect(updateLiveSchema.safeParse({ team1_score: score }).error?.issues[0].message).toBe(
          priceMessages.scoreFormat,
        );
        expect(await failure(tx, (sp) => sp`select app.update_live(${matchId}, ${score}, null, null, null)`)).toEqual({
          code: 'BT400',
          message: priceMessages.scoreFormat,
        });
      }
      expect(await failure(tx, (sp) => sp`select app.update_live(${matchId}, null, null, null, null, 3)`)).toEqual({
        code: 'BT400',
        message: priceMessages.battingFirst,
      });
    }));

  it("player protection: the domain periods, limits, lengths and cool-off are the database's, with its messages", () =>
    inRolledBackTransaction(async (tx) => {
      const player = await fundedPlayer(tx, 'prot', 0);
      await as(tx, player);
      const limit = (period: string, amount: number) => (sp: Tx) =>
        sp`select app.set_deposit_limit(${period}, ${amount})`;
      for (const period of LIMIT_PERIODS) expect(await failure(tx, limit(period, MIN_DEPOSIT_LIMIT))).toBeNull();
      expect(await failure(tx, limit('yearly', MIN_DEPOSIT_LIMIT))).toEqual({
        code: 'BT400',
        message: protectionMessages.periodInvalid,
      });
      expect(await failure(tx, limit('daily', MIN_DEPOSIT_LIMIT - 1))).toEqual({
        code: 'BT400',
        message: protectionMessages.limitRange,
      });
      expect(await failure(tx, limit('daily', MAX_DEPOSIT_LIMIT + 1))).toEqual({
        code: 'BT400',
        message: protectionMessages.limitRange,
      });
      const [{ raised }] = await tx`select app.set_deposit_limit('daily', ${MAX_DEPOSIT_LIMIT}) as raised`;
      const [change] = raised.pending_changes;
      expect(Date.parse(change.effective_at) - Date.parse(change.requested_at)).toBe(
        LIMIT_RAISE_DELAY_HOURS * 3_600_000,
      );

      expect(await failure(tx, (sp) => sp`select * from app.statement(null, '2026-11-22', '2026-11-21')`)).toEqual({
        code: 'BT400',
        message: protectionMessages.dateOrder,
      });
      await as(tx, null);
      const [{ id: adminId }] =
        await tx`select id from app.create_admin(${'limits_admin4' + tag}, 'hash', 'Admin', null)`;
      await as(tx, { id: Number(adminId), role: 'admin' });
      expect(await failure(tx, (sp) => sp`select app.take_timeout(1, ${player.id})`)).toEqual({
        code: 'BT403',
        message: protectionMessages.onlyThePlayer,
      });

      await as(tx, player);
      // each length in turn (ascending, so each one outlasts the one before)
      for (const days of TIMEOUT_DAYS)
        expect(await failure(tx, (sp) => sp`select app.take_timeout(${days})`)).toBeNull();
      expect(await failure(tx, (sp) => sp`select app.take_timeout(2)`)).toEqual({
        code: 'BT400',
        message: protectionMessages.timeoutDays,
      });
      for (const months of SELF_EXCLUSION_MONTHS)
        expect(await failure(tx, (sp) => sp`select app.self_exclude(${months})`)).toBeNull();
      expect(await failure(tx, (sp) => sp`select app.self_exclude(5)`)).toEqual({
        code: 'BT400',
        message: protectionMessages.selfExclusionMonths,
      });
    }));

  it('registration and bank accounts: the domain minimum lengths pass, one less fails with the domain message', () =>
    inRolledBackTransaction(async (tx) => {
      await as(tx, null);
      const letters = () => Math.random().toString(36).slice(2);
      const register = (username: string, name: string) => (sp: Tx) =>
        sp`select app.register_user(${username}, 'hash', ${name}, ${`${username}@example.test`}, null, null)`;
      const shortest = `q${letters()}`.slice(0, USERNAME_MIN);
      expect(await failure(tx, register(shortest, 'x'.repeat(NAME_MIN)))).toBeNull();
      expect(await failure(tx, register(shortest.slice(1), 'Limits Player'))).toEqual({
        code: 'BT400',
        message: messages.usernameMin,
      });
      expect(await failure(tx, register(`name${tag}`, 'x'.repeat(NAME_MIN - 1)))).toEqual({
        code: 'BT400',
        message: messages.nameMin,
      });

      const player = await fundedPlayer(tx, 'bank', 0);
      await as(tx, player);
      const digits = () => `9${String(Math.random()).slice(2)}`;
      const account = (holder: string, number: string, ifsc: string, bank: string) => (sp: Tx) =>
        sp`select app.add_bank_account(${holder}, ${number}, ${ifsc}, ${bank})`;
      const ifsc = 'HDFC0001234'.slice(0, IFSC_LENGTH);
      expect(
        await failure(
          tx,
          account(
            'x'.repeat(ACCOUNT_HOLDER_MIN),
            digits().slice(0, ACCOUNT_NUMBER_MIN),
            ifsc,
            'x'.repeat(BANK_NAME_MIN),
          ),
        ),
      ).toBeNull();
      const refused: [(sp: Tx) => Promise<unknown>, string][] = [
        [account('x'.repeat(ACCOUNT_HOLDER_MIN - 1), digits(), ifsc, 'HDFC Bank'), messages.accountHolderMin],
        [
          account('Limits Player', digits().slice(0, ACCOUNT_NUMBER_MIN - 1), ifsc, 'HDFC Bank'),
          messages.accountNumberInvalid,
        ],
        [account('Limits Player', digits(), ifsc.slice(1), 'HDFC Bank'), messages.ifscLength],
        [account('Limits Player', digits(), ifsc, 'x'.repeat(BANK_NAME_MIN - 1)), messages.bankNameMin],
      ];
      for (const [call, message] of refused) expect(await failure(tx, call)).toEqual({ code: 'BT400', message });
    }));

  it('withdrawals: one completed deposit of the qualifying amount is what the database asks for too', () =>
    inRolledBackTransaction(async (tx) => {
      const player = await fundedPlayer(tx, 'qual', QUALIFYING_DEPOSIT - 1);
      await as(tx, player);
      const [{ id: accountId }] =
        await tx`select id from app.add_bank_account('Limits Player', ${`8${String(Math.random()).slice(2, 14)}`}, 'HDFC0001234', 'HDFC Bank')`;
      const withdraw = (sp: Tx) => sp`select app.request_withdrawal(${MIN_WITHDRAWAL}, ${accountId})`;
      expect((await failure(tx, withdraw))?.message).toBe(messages.qualifyingDepositRequired);
      const reference = `REF-${Date.now()}-QUAL`;
      await tx`select app.request_deposit(${QUALIFYING_DEPOSIT}, 'upi', ${reference})`;
      await as(tx, null);
      await tx`select app.complete_deposit(${reference}, ${QUALIFYING_DEPOSIT}, 'success', ${'GW-' + reference})`;
      await as(tx, player);
      expect(await failure(tx, withdraw)).toBeNull();
    }));

  it("reality checks: the domain intervals and default are the database's, with its message", () =>
    inRolledBackTransaction(async (tx) => {
      const player = await fundedPlayer(tx, 'real', 0);
      await as(tx, player);
      const [{ check }] = await tx`select app.reality_check() as check`;
      expect(check).toEqual({ interval_minutes: DEFAULT_REALITY_CHECK_MINUTES });
      for (const minutes of [...REALITY_CHECK_MINUTES, null])
        expect(await failure(tx, (sp) => sp`select app.set_reality_check(${minutes})`)).toBeNull();
      expect(await failure(tx, (sp) => sp`select app.set_reality_check(45)`)).toEqual({
        code: 'BT400',
        message: protectionMessages.realityCheckMinutes,
      });
    }));

  it("lists and text widths: each list the domain offers is the one the database's constraint allows", async () => {
    const allowed = async (constraint: string) => {
      const [{ definition }] =
        await sql`select pg_get_constraintdef(oid) as definition from pg_constraint where conname = ${constraint}`;
      return [...String(definition).matchAll(/'([^']+)'::/g)].map((match) => match[1]).sort();
    };
    const lists: [string, readonly string[]][] = [
      ['users_role_check', USER_ROLES],
      ['users_status_check', USER_STATUSES],
      ['matches_status_check', MATCH_STATUSES],
      ['matches_match_type_check', MATCH_TYPES],
      ['transactions_type_check', TRANSACTION_TYPES],
      ['transactions_status_check', TRANSACTION_STATUSES],
      ['bets_status_check', BET_STATUSES],
      ['protection_changes_period_check', LIMIT_PERIODS],
    ];
    for (const [constraint, values] of lists)
      expect([constraint, await allowed(constraint)]).toEqual([constraint, [...values].sort()]);

    const widths = await sql`
      select table_name || '.' || column_name as name, character_maximum_length as width
      from information_schema.columns where table_schema = 'public' and character_maximum_length is not null`;
    const width = (name: string) => widths.find((column) => column.name === name)?.width;
    for (const name of ['users.username', 'users.name', 'users.email', 'matches.venue', 'matches.match_result'])
      expect([name, width(name)]).toEqual([name, LONG_TEXT]);
    for (const name of ['bank_accounts.account_holder', 'bank_accounts.bank_name'])
      expect([name, width(name)]).toEqual([name, LONG_TEXT]);
    for (const name of ['users.phone', 'users.referral_code', 'bank_accounts.account_number', 'matches.team1_score'])
      expect([name, width(name)]).toEqual([name, SHORT_TEXT]);
    expect(width('transactions.notes')).toBe(MAX_NOTES);
  });
});
