/**
 * House risk in the browser: an admin suspends betting on a match that a player has open, and the player's
 * bet slip says so without a reload; resuming brings the button back. A player who backed one team sees the
 * other as unavailable, and a stale live score pauses the slip until the next update. The admin's Risk card
 * shows the book and follows the bets, and the Settings screen is in the sidebar.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createMatch, database, fund, registerPlayer, type Db, type Player } from '../support/api.ts';
import { browserSuite } from '../support/browser.ts';
import { subscribe } from '../support/sse.ts';

describe('house risk in the browser', () => {
  const suite = browserSuite();
  let db: Db;
  let admin: Player;
  let player: Player;

  beforeAll(async () => {
    (await subscribe(`${suite.server.url}/api/live/matches`)).close(); // the server's feed now listens
    db = database();
    admin = await createAdmin(suite.server, db);
    player = await registerPlayer(suite.server);
    await fund(suite.server, player, 10000);
  });
  afterAll(() => db?.end());

  /** A tab signed in as `account` (its API session cookie) on `path`, once the page's live stream (if any) is open. */
  async function pageAs(account: Player, path: string, { live = true } = {}): Promise<Page> {
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = account.client.cookie!.split('=');
    await context.addCookies([{ name, value, url: suite.server.url }]);
    const page = await context.newPage();
    const stream = live && page.waitForResponse((response) => new URL(response.url()).pathname === '/api/live/matches');
    await page.goto(`${suite.server.url}${path}`);
    await stream;
    return page;
  }

  const confirm = (page: Page, action: string) =>
    page.getByRole('alertdialog', { name: action }).getByRole('button', { name: action }).click();

  it("suspends betting while a player has the match open: the player's bet slip changes without a reload", async () => {
    const match = await createMatch(admin, { live: true, team1: 1, team2: 2 });
    expect((await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 2000 })).status).toBe(201);
    const playerPage = await pageAs(player, `/live/${match.id}`);
    await playerPage.getByRole('button', { name: 'Select a team to bet' }).waitFor();
    const adminPage = await pageAs(admin, `/admin/matches/${match.id}`);
    const risk = adminPage.getByRole('table', { name: 'Risk' });
    await risk.getByRole('row', { name: /Mumbai Indians 1 ₹2,000 ₹6,000 -₹4,000/ }).waitFor();

    await adminPage.getByRole('button', { name: 'Suspend Betting' }).click();
    await confirm(adminPage, 'Suspend Betting');
    await adminPage.getByText('Betting suspended', { exact: true }).first().waitFor();
    await playerPage.getByText('Betting is suspended for this match').waitFor({ timeout: 5000 });
    expect(await playerPage.getByRole('button', { name: /Select a team to bet|Place Bet/ }).count()).toBe(0);
    const refused = await player.client.post('/api/bets', { match_id: match.id, team_id: 2, amount: 1000 });
    expect(refused.body).toEqual({ message: 'Betting is suspended for this match' });

    await adminPage.getByRole('button', { name: 'Resume Betting' }).click();
    await confirm(adminPage, 'Resume Betting');
    await playerPage.getByRole('button', { name: 'Select a team to bet' }).waitFor({ timeout: 5000 });
    expect(await playerPage.getByText('Betting is suspended for this match').count()).toBe(0);

    // the player backed MI: CSK is unavailable, and the slip says why
    await playerPage.getByText('You have already backed Mumbai Indians in this match').waitFor();
    expect(await playerPage.getByRole('button', { name: /CSK 3\.00 Chennai Super Kings/ }).isDisabled()).toBe(true);
    // another bet on MI from the page; the admin's Risk card follows without a reload
    await playerPage.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }).click();
    await playerPage.getByRole('textbox', { name: 'Bet amount (₹)' }).fill('1000');
    await playerPage.getByRole('button', { name: 'Place Bet' }).click();
    await playerPage.getByText('Bet placed successfully').waitFor();
    await risk.getByRole('row', { name: /Mumbai Indians 2 ₹3,000 ₹9,000 -₹6,000/ }).waitFor({ timeout: 15_000 });
  });

  it('pauses the bet slip while the live score is stale, and reopens it with the next live update', async () => {
    const match = await createMatch(admin, { live: true, team1: 3, team2: 4 });
    const playerPage = await pageAs(player, `/live/${match.id}`);
    await playerPage.getByRole('button', { name: 'Select a team to bet' }).waitFor();
    // the last live update was 181 seconds ago (the pause comes after 180)
    await db`update public.matches set live_updated_at = now() - interval '181 seconds' where id = ${match.id}`;
    await playerPage.getByText('Betting is paused until the live score is updated').waitFor({ timeout: 5000 });
    expect(await playerPage.getByRole('button', { name: /Select a team to bet|Place Bet/ }).count()).toBe(0);
    await admin.client.patch(`/api/admin/matches/${match.id}/update-live`, { team1_score: '12/0' });
    await playerPage.getByRole('button', { name: 'Select a team to bet' }).waitFor({ timeout: 5000 });
  });

  it('closes the bet slip when a live update reaches the close over', async () => {
    const match = await createMatch(admin, { live: true, team1: 1, team2: 2 });
    const playerPage = await pageAs(player, `/live/${match.id}`);
    await playerPage.getByRole('button', { name: 'Select a team to bet' }).waitFor();
    const updated = await admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
      current_innings: 2,
      current_over: 15,
    });
    expect(updated.body.betting).toBe('closed');
    await playerPage.getByText('Betting is closed').waitFor({ timeout: 5000 });
  });

  it('has the Settings screen in the sidebar', async () => {
    const adminPage = await pageAs(admin, '/admin', { live: false });
    await adminPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
    await adminPage.getByRole('heading', { name: 'House risk' }).waitFor();
    const settings = (await admin.client.get('/api/admin/settings')).body;
    expect(await adminPage.getByRole('textbox', { name: 'Maximum stake per bet (₹)' }).inputValue()).toBe(
      String(settings.max_stake_per_bet),
    );
  });
});
