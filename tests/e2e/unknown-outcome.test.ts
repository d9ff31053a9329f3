/**
 * A bet whose answer is lost on the way back, in a real Chromium against the real server: the bet reaches
 * the server and is placed, but the browser gets a 504 ("outcome": "unknown"), or no answer at all (the
 * network). The SPA sends the bet again with the same Idempotency-Key, the server replays the stored
 * result, and the player sees 'Bet placed successfully' — for one bet, debited once.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { balance, database, fund, registerPlayer, type Player } from '../support/api.ts';
import { browserSuite } from '../support/browser.ts';

describe('a bet whose answer is lost', () => {
  let liveMatchId: number;
  const suite = browserSuite(async (sql) => {
    const [live] = await sql<{ id: string }[]>`
      insert into public.matches (team1_id, team2_id, start_time, status, match_type, venue, team1_score, current_innings, current_over, live_updated_at)
      values (4, 5, now() - interval '1 hour', 'live', 't20', 'Eden Gardens, Kolkata', '88/2', 1, 9.4, now())
      returning id`;
    liveMatchId = Number(live.id);
  });

  /** A funded player's tab on the live match, every POST /api/bets passing through `lose`. */
  async function bettingPage(lose: (route: Route, attempt: number) => Promise<void>) {
    const player = await registerPlayer(suite.server);
    await fund(suite.server, player, 5000);
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = player.client.cookie!.split('=');
    await context.addCookies([{ name, value, url: suite.server.url }]);
    const page = await context.newPage();
    const keys: string[] = [];
    await page.route('**/api/bets', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key']);
      await lose(route, keys.length);
    });
    await page.goto(`${suite.server.url}/live/${liveMatchId}`);
    return { player, page, keys };
  }

  async function placeBet(page: Page) {
    await page.getByRole('button', { name: /KKR 3\.00 Kolkata Knight Riders/ }).click();
    await page.getByLabel('Bet amount (₹)').fill('2000');
    await page.getByRole('button', { name: 'Place Bet' }).click();
    await page.getByText('Bet placed successfully').waitFor({ timeout: 20_000 });
  }

  async function expectOneBet(player: Player, keys: string[]) {
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const db = database();
    try {
      const bets = await db`select amount from public.bets where user_id = ${player.id}`;
      expect(bets).toEqual([{ amount: 2000 }]);
      expect(await balance(db, player.id)).toBe(3000);
    } finally {
      await db.end();
    }
  }

  it('after a 504, sends it again with its key and shows the stored result', async () => {
    const { player, page, keys } = await bettingPage(async (route, attempt) => {
      if (attempt > 1) return route.continue();
      await route.fetch(); // placed by the server; its answer is lost
      await route.fulfill({
        status: 504,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
        body: JSON.stringify({
          message: 'We could not confirm this request. Check before trying again.',
          outcome: 'unknown',
        }),
      });
    });
    await placeBet(page);
    await expectOneBet(player, keys);
  });

  it('after a network error, the same', async () => {
    const { player, page, keys } = await bettingPage(async (route, attempt) => {
      if (attempt > 1) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    });
    await placeBet(page);
    await expectOneBet(player, keys);
  });
});
