/**
 * Live updates reach an open page without reload and without waiting for the 30 s poll: the admin's
 * live-score update, the settlement, the player's own result (a toast) and their balance chip appear within
 * 2 s. The event carries the match, so the page shows the new score without reading the match again.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createMatch, database, fund, registerPlayer, type Db, type Player } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { subscribe } from '../support/sse.ts';
import { startServer, type TestServer } from '../support/server.ts';

describe('live match updates in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let db: Db;
  let admin: Player;
  let player: Player;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ staticDir: 'dist' }), launchBrowser()]);
    (await subscribe(`${server.url}/api/live/matches`)).close(); // the server's feed now listens
    db = database();
    admin = await createAdmin(server, db);
    player = await registerPlayer(server);
    await fund(server, player, 10000);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await db?.end();
  });

  /** A browser tab signed in as the player (the session cookie from the API registration). */
  async function playerPage(path: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = player.client.cookie!.split('=');
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    // The server subscribes a stream before it answers with its headers, and its feed already listens
    // (beforeAll): once the page has the stream's response, no later update can be missed.
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/live/matches');
    await page.goto(`${server.url}${path}`);
    await stream;
    return page;
  }

  it("shows the admin's new score on the player's live page within 2 s, without reload or a read of the match", async () => {
    const match = await createMatch(admin, { live: true, team1: 1, team2: 2 });
    const page = await playerPage(`/live/${match.id}`);
    await page.getByText('Match in progress').first().waitFor();
    const matchReads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/matches')) matchReads.push(request.url());
    });

    const sent = Date.now();
    const updated = await admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
      team1_score: '77/2',
      team2_score: '',
      current_innings: 1,
      current_over: 9.3,
    });
    expect(updated.status).toBe(200);
    await page.getByLabel('MI score').getByText('77/2').waitFor({ timeout: 2000 });
    expect(Date.now() - sent).toBeLessThan(2000);
    expect(matchReads, 'the event itself carried the new score').toEqual([]);
  });

  it('shows the settlement, tells the player their result and refreshes their balance chip within 2 s', async () => {
    const match = await createMatch(admin, { live: true, team1: 1, team2: 2 });
    const bet = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });
    expect(bet.status).toBe(201);
    const before = (await player.client.get('/api/user')).body.wallet_balance as number;
    const page = await playerPage(`/live/${match.id}`);
    await page.getByTestId('balance-chip').waitFor();

    const declared = await admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
    expect(declared.status).toBe(200);
    await page.getByText('Mumbai Indians won the match').waitFor({ timeout: 2000 });
    await page.getByText('You won ₹3,000').waitFor({ timeout: 2000 });
    const after = new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      maximumFractionDigits: 0,
    }).format(before + 3000);
    await page.getByLabel(`Balance ${after}`).waitFor({ timeout: 2000 });
  });
});
