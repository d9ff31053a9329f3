/**
 * The house's books, in the browser: a player bets on a match and loses, the admin declares the winner, then
 * opens the dashboard (today's house result, which leads to the Books screen) and finds the match's line
 * there — stakes, payouts and the house's result — beside the chart of the days. The figures themselves are
 * the API tests' and pgTAP's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  createMatch,
  database,
  fund,
  reconcile,
  registerPlayer,
  settled,
  type Db,
  type Player,
} from '../support/api.ts';
import { browserSuite } from '../support/browser.ts';

describe("the house's books, in the browser", () => {
  const suite = browserSuite();
  let db: Db;
  let admin: Player;

  beforeAll(async () => {
    db = database();
    admin = await createAdmin(suite.server, db);
  });
  afterAll(() => db?.end());

  it("an admin opens Books from the dashboard and sees the match's result", async () => {
    const player = await registerPlayer(suite.server);
    await fund(suite.server, player, 5000);
    const match = await createMatch(admin, { live: true, team1: 7, team2: 8 });
    expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 8, amount: 2500 })).status).toBe(201);
    expect(
      (await admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 7 })).status,
    ).toBe(200);
    await settled(db, match.id);

    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = admin.client.cookie!.split('=');
    await context.addCookies([{ name, value, url: suite.server.url }]);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/admin`);
    await page.getByRole('link', { name: /^House result today: / }).click();
    await page.getByRole('heading', { name: 'Books', level: 1 }).waitFor();

    const line = page.getByTestId(`books-match-${match.id}`);
    await line.waitFor();
    expect(await line.getByRole('cell').allTextContents()).toEqual([
      'Rajasthan Royals vs Sunrisers Hyderabad',
      expect.any(String),
      '1',
      '₹2,500',
      '₹0',
      '₹0',
      '₹2,500',
    ]);
    // the chart of the days is drawn (its bars are SVG, from the chart library)
    await page.getByRole('figure', { name: 'House result per day' }).locator('svg').first().waitFor();
    expect(await reconcile(db)).toEqual([]);
  });
});
