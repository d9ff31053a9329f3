/**
 * The operator's price and the decided match in the browser: an admin prices a match on its page (the Odds
 * card, the Risk card's over-round and its warning), a player's open slip shows the new prices without a
 * reload, bets at them and finds the bet at its own odds in My Bets; a slip whose live updates never came
 * sends the old price and says the odds have changed, with the new one; the Settings screen prices new
 * matches; and a live update that passes the target closes the player's slip.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  createMatch,
  database,
  fund,
  reconcile,
  registerPlayer,
  type Db,
  type Player,
} from '../support/api.ts';
import { browserSuite } from '../support/browser.ts';
import { subscribe } from '../support/sse.ts';

describe('the price in the browser', () => {
  const suite = browserSuite();
  let db: Db;
  let admin: Player;
  let player: Player;

  beforeAll(async () => {
    (await subscribe(`${suite.server.url}/api/live/matches`)).close(); // the server's feed now listens
    db = database();
    admin = await createAdmin(suite.server, db);
    player = await registerPlayer(suite.server);
    await fund(suite.server, player, 20_000);
    return () => db.end();
  });

  /**
   * A tab signed in as `account` on `path`, once the page's live stream is open; with `live: false` the live
   * stream never connects (as on a network that drops it), so only the page's own reads bring news.
   */
  async function pageAs(account: Player, path: string, { live = true } = {}): Promise<Page> {
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = account.client.cookie!.split('=');
    await context.addCookies([{ name, value, url: suite.server.url }]);
    const page = await context.newPage();
    if (!live) await page.route('**/api/live/**', (route) => route.abort());
    const stream = live && page.waitForResponse((response) => new URL(response.url()).pathname === '/api/live/matches');
    await page.goto(`${suite.server.url}${path}`);
    await stream;
    return page;
  }

  const teamButton = (page: Page, label: RegExp) => page.getByRole('button', { name: label });

  it("prices a match on its admin page; the player's open slip follows live and the bet keeps its odds", async () => {
    const match = await createMatch(admin, { live: true, team1: 1, team2: 2 });
    const playerPage = await pageAs(player, `/live/${match.id}`);
    await teamButton(playerPage, /MI 3\.00 Mumbai Indians/).waitFor();
    await teamButton(playerPage, /CSK 3\.00 Chennai Super Kings/).waitFor();

    const adminPage = await pageAs(admin, `/admin/matches/${match.id}`);
    const risk = adminPage.getByRole('region', { name: 'Risk' });
    await risk.getByText('Over-round: 66.7 %').waitFor();
    await risk.getByText('Players can back both teams for a certain profit').waitFor();
    const odds = adminPage.getByRole('form', { name: 'Odds' });
    await odds.getByRole('textbox', { name: 'Mumbai Indians odds' }).fill('1.85');
    await odds.getByRole('textbox', { name: 'Chennai Super Kings odds' }).fill('1.95');
    await odds.getByText('Over-round: 105.3 %').waitFor();
    await odds.getByRole('button', { name: 'Save Odds' }).click();
    await adminPage.getByText('Odds updated', { exact: true }).first().waitFor();
    await risk.getByText('Over-round: 105.3 %').waitFor({ timeout: 10_000 });
    expect(await risk.getByText('Players can back both teams for a certain profit').count()).toBe(0);

    await teamButton(playerPage, /MI 1\.85 Mumbai Indians/).click({ timeout: 5000 });
    await playerPage.getByRole('textbox', { name: 'Bet amount (₹)' }).fill('2000');
    expect(await playerPage.getByTestId('potential-win').textContent()).toBe('₹3,700');
    await playerPage.getByRole('button', { name: 'Place Bet' }).click();
    await playerPage.getByText('Bet placed successfully').waitFor();

    await admin.client.patch(`/api/admin/matches/${match.id}/odds`, { team1_odds: 2.5 });
    await teamButton(playerPage, /MI 2\.50 Mumbai Indians/).waitFor({ timeout: 5000 });
    await playerPage.goto(`${suite.server.url}/my-bets`);
    await playerPage.getByText('Bet on MI · ₹2,000 at 1.85x').waitFor();
    await playerPage.getByText('₹3,700').first().waitFor();
    await adminPage.reload();
    await adminPage.getByRole('table', { name: 'Match bets' }).getByText('1.85x').waitFor();
    expect(await reconcile(db)).toEqual([]);
  });

  it('a slip that never heard of the new price sends the old one and says the odds have changed, with the new one', async () => {
    const match = await createMatch(admin, { live: true, team1: 3, team2: 4 });
    const playerPage = await pageAs(player, `/live/${match.id}`, { live: false });
    await teamButton(playerPage, /RCB 3\.00 Royal Challengers Bangalore/).click();
    await playerPage.getByRole('textbox', { name: 'Bet amount (₹)' }).fill('1000');
    await admin.client.patch(`/api/admin/matches/${match.id}/odds`, { team1_odds: 2.2 });
    const before = (await player.client.get('/api/user')).body.wallet_balance;

    await playerPage.getByRole('button', { name: 'Place Bet' }).click();
    await playerPage.getByRole('alert').getByText('Odds have changed: RCB is now 2.20').waitFor();
    await playerPage.getByText('409: Odds have changed').waitFor();
    expect((await player.client.get('/api/user')).body.wallet_balance).toBe(before);
    await teamButton(playerPage, /RCB 2\.20 Royal Challengers Bangalore/).waitFor();
    expect(await playerPage.getByTestId('potential-win').textContent()).toBe('₹2,200');

    await playerPage.getByRole('button', { name: 'Place Bet' }).click();
    await playerPage.getByText('Bet placed successfully').waitFor();
    const [bet] = await db`select odds::text, potential_win from public.bets where match_id = ${match.id}`;
    expect([bet.odds, bet.potential_win]).toEqual(['2.20', 2200]);
  });

  it('prices new matches from the Settings screen', async () => {
    const adminPage = await pageAs(admin, '/admin/settings', { live: false });
    const field = adminPage.getByRole('textbox', { name: 'Default odds of a new match' });
    expect(await field.inputValue()).toBe('3.00');
    try {
      await field.fill('1.90');
      await adminPage.getByRole('button', { name: 'Save Settings' }).click();
      await adminPage.getByText('Settings saved', { exact: true }).first().waitFor();
      const match = await createMatch(admin, { team1: 5, team2: 6 });
      expect((await admin.client.get(`/api/admin/matches/${match.id}`)).body).toMatchObject({
        team1_odds: 1.9,
        team2_odds: 1.9,
      });
    } finally {
      await admin.client.put('/api/admin/settings', { default_odds: 3 });
    }
  });

  it("closes the player's slip when the admin's live update shows the target passed", async () => {
    const match = await createMatch(admin, { live: true, team1: 7, team2: 8 });
    await admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
      team1_score: '140/9',
      current_innings: 1,
      current_over: 20,
    });
    const playerPage = await pageAs(player, `/live/${match.id}`);
    await playerPage.getByRole('button', { name: 'Select a team to bet' }).waitFor();

    const adminPage = await pageAs(admin, `/admin/matches/${match.id}`);
    const form = adminPage.getByRole('region', { name: 'Update live score' });
    expect(await form.getByRole('combobox', { name: 'Batting first' }).inputValue()).toBe('7');
    await form.getByRole('textbox', { name: 'Sunrisers Hyderabad score' }).fill('141/3');
    await form.getByRole('combobox', { name: 'Innings' }).selectOption('2');
    await form.getByRole('textbox', { name: 'Over' }).fill('12.3');
    await form.getByRole('button', { name: 'Update Score' }).click();
    await adminPage.getByText('Match updated', { exact: true }).first().waitFor();

    await playerPage.getByText('Betting is closed').waitFor({ timeout: 5000 });
    expect(await playerPage.getByRole('button', { name: /Select a team to bet|Place Bet/ }).count()).toBe(0);
    const refused = await player.client.post('/api/bets', { match_id: match.id, team_id: 8, amount: 1000 });
    expect(refused.body).toEqual({ message: 'Betting is closed for this match' });
  });
});
