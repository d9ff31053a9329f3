/**
 * The house's books: GET /api/admin/books and /api/admin/books.csv. A match's line adds up the bets placed and
 * settled on it (stakes, payouts, refunds, the house's result), the days and the matches of one answer add up
 * to the same house result, the range is checked (IST days, at most 366), only an admin reads them, and the
 * CSV is the same data (its guard against spreadsheet formulas is checked by pgTAP 32b-books, since the teams
 * are reference data every test file shares). Other test files work beside this one, so a day's figures are
 * checked for what this file added, not for their whole value.
 */
import { describe, expect, it } from 'vitest';
import { booksMessages, type Books } from '@/domain/books.ts';
import { protectionMessages } from '@/domain/protection.ts';
import {
  apiSuite,
  istDay,
  Client,
  createMatch,
  fund,
  newBankAccount,
  registerPlayer,
  settled,
  unique,
} from '../../support/api.ts';

describe("the house's books", () => {
  const api = apiSuite({ admin: true, reconciled: true });
  const today = () => `from=${istDay()}&to=${istDay()}`;
  const books = async (query: string) => {
    const answer = await api.admin.client.get<Books>(`/api/admin/books?${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  it('sums the bets placed and settled on each match, and the days add up to the same house result', async () => {
    const before = await books(today());
    const [winner, loser] = await Promise.all([registerPlayer(api.server), registerPlayer(api.server)]);
    await Promise.all([fund(api.server, winner, 5000), fund(api.server, loser, 5000)]);

    const won = await createMatch(api.admin, { live: true, team1: 3, team2: 4 });
    const winning = await winner.client.post('/api/bets', { match_id: won.id, team_id: 3, amount: 2000 });
    const losing = await loser.client.post('/api/bets', { match_id: won.id, team_id: 4, amount: 3000 });
    expect([winning.status, losing.status]).toEqual([201, 201]);
    expect(
      (await api.admin.client.patch(`/api/admin/matches/${won.id}/declare-winner`, { winning_team_id: 3 })).status,
    ).toBe(200);
    await settled(api.db, won.id);

    const abandoned = await createMatch(api.admin, { live: true, team1: 5, team2: 6 });
    expect((await winner.client.post('/api/bets', { match_id: abandoned.id, team_id: 5, amount: 1000 })).status).toBe(
      201,
    );
    expect((await api.admin.client.patch(`/api/admin/matches/${abandoned.id}/abandon`)).status).toBe(200);
    await settled(api.db, abandoned.id);

    const after = await books(today());
    const paid = winning.body.potential_win as number;
    expect(after.matches.find((line) => line.match_id === won.id)).toEqual({
      match_id: won.id,
      team1: 'Royal Challengers Bangalore',
      team2: 'Kolkata Knight Riders',
      settled_at: expect.any(String),
      bets: 2,
      stakes: 5000,
      paid,
      refunded: 0,
      house_result: 5000 - paid,
    });
    expect(after.matches.find((line) => line.match_id === abandoned.id)).toMatchObject({
      team1: 'Delhi Capitals',
      team2: 'Punjab Kings',
      bets: 1,
      stakes: 1000,
      paid: 0,
      refunded: 1000,
      house_result: 0,
    });
    // newest first
    const order = after.matches.map((line) => line.match_id);
    expect(order.indexOf(abandoned.id)).toBeLessThan(order.indexOf(won.id));

    // one day, today's: at least this file's deposits
    expect(after.days).toHaveLength(1);
    expect(after.days[0].day).toBe(istDay());
    expect(after.days[0].deposits - before.days[0].deposits).toBeGreaterThanOrEqual(10_000);
    // the matches, the days and the totals of one answer add up
    expect(sum(after.days.map((day) => day.house_result))).toBe(sum(after.matches.map((line) => line.house_result)));
    expect(after.totals).toEqual({
      bets: sum(after.matches.map((line) => line.bets)),
      stakes: sum(after.matches.map((line) => line.stakes)),
      paid: sum(after.matches.map((line) => line.paid)),
      refunded: sum(after.matches.map((line) => line.refunded)),
      deposits: sum(after.days.map((day) => day.deposits)),
      withdrawals: sum(after.days.map((day) => day.withdrawals)),
      admin_credits: sum(after.days.map((day) => day.admin_credits)),
      referral_bonuses: sum(after.days.map((day) => day.referral_bonuses)),
      house_result: sum(after.days.map((day) => day.house_result)),
    });
  });

  it('counts withdrawals paid and admin credits on their day', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 5000);
    const before = await books(today());
    const account = await player.client.post('/api/bank-accounts', newBankAccount('Books Player'));
    expect(account.status).toBe(201);
    const withdrawal = await player.client.post('/api/wallet/withdraw', {
      amount: 700,
      bankAccountId: account.body.id,
    });
    expect(withdrawal.status).toBe(201);
    expect((await api.admin.client.patch(`/api/admin/transactions/${withdrawal.body.id}/approve`)).status).toBe(200);
    const credit = await api.admin.client.post(`/api/admin/users/${player.id}/wallet`, {
      amount: 300,
      notes: unique('books credit'),
    });
    expect(credit.status).toBe(201);

    const after = await books(today());
    expect(after.days[0].withdrawals - before.days[0].withdrawals).toBeGreaterThanOrEqual(700);
    expect(after.days[0].admin_credits - before.days[0].admin_credits).toBeGreaterThanOrEqual(300);
  });

  it('answers every day of a range, oldest first, and at most 366 of them', async () => {
    const week = await books(`from=${istDay(-6)}&to=${istDay()}`);
    expect(week.days.map((day) => day.day)).toEqual([-6, -5, -4, -3, -2, -1, 0].map(istDay));
    const year = await api.admin.client.get(`/api/admin/books?from=2025-01-01&to=2025-12-31`);
    expect(year.status).toBe(200);
    expect(year.body.days).toHaveLength(365);
    expect((await api.admin.client.get(`/api/admin/books?from=2024-01-01&to=2024-12-31`)).body.days).toHaveLength(366);
  });

  it.each([
    ['from=2024-01-01&to=2025-01-01', booksMessages.rangeTooLong],
    ['from=2026-11-02&to=2026-11-01', protectionMessages.dateOrder],
    ['from=2026-11-01', protectionMessages.dateInvalid],
    ['from=01-11-2026&to=2026-11-30', protectionMessages.dateInvalid],
  ])('refuses %s with a 400 and its message', async (query, message) => {
    for (const path of ['/api/admin/books', '/api/admin/books.csv']) {
      expect(await api.admin.client.get(`${path}?${query}`)).toMatchObject({ status: 400, body: { message } });
    }
  });

  it('is for admins only: a player is refused (403), a stranger asked to sign in (401)', async () => {
    const player = await registerPlayer(api.server);
    for (const path of ['/api/admin/books', '/api/admin/books.csv']) {
      expect((await player.client.get(`${path}?${today()}`)).status).toBe(403);
      expect((await new Client(api.server.url).get(`${path}?${today()}`)).status).toBe(401);
    }
  });

  it('gives the same books as CSV, one table of match, day and total lines', async () => {
    const player = await registerPlayer(api.server);
    await fund(api.server, player, 2000);
    const match = await createMatch(api.admin, { live: true, team1: 8, team2: 7 });
    expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 7, amount: 1000 })).status).toBe(201);
    expect(
      (await api.admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 8 })).status,
    ).toBe(200);
    await settled(api.db, match.id);

    const json = await books(today());
    const csv = await api.admin.client.get(`/api/admin/books.csv?${today()}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="books-${istDay()}-to-${istDay()}.csv"`);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe(
      'line,match_id,team1,team2,settled_at (IST),day,bets,stakes,paid,refunded,deposits,withdrawals,' +
        'admin_credits,referral_bonuses,house_result',
    );
    expect(lines.at(-1)).toBe('');
    const line = lines.find((text) => text.startsWith(`match,${match.id},`));
    expect(line).toMatch(
      new RegExp(
        `^match,${match.id},Sunrisers Hyderabad,Rajasthan Royals,\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,,1,1000,0,0,,,,,1000$`,
      ),
    );
    // the same data: every match line of the JSON answer, in its order, then the day, then the totals
    // (other files may settle between the two requests: the CSV holds at least the JSON's lines)
    const matchIds = lines.filter((text) => text.startsWith('match,')).map((text) => Number(text.split(',')[1]));
    expect(matchIds.filter((id) => json.matches.some((m) => m.match_id === id))).toEqual(
      json.matches.map((m) => m.match_id),
    );
    expect(lines.filter((text) => text.startsWith('day,'))).toHaveLength(1);
    expect(lines.filter((text) => text.startsWith('day,'))[0]).toMatch(new RegExp(`^day,,,,,${istDay()},,,,,\\d+,`));
    expect(lines.at(-2)).toMatch(/^total,,,,,,\d+,\d+,\d+,\d+,\d+,\d+,-?\d+,\d+,-?\d+$/);
  });
});
