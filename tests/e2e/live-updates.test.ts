/**
 * Live updates reach an open page without reload and without a poll: the admin's live-score update, the
 * settlement, the player's own result (a toast) and their balance chip appear within 2 s. The event carries
 * the match, so the page shows the new score without reading the match again. And when the live stream is
 * refused (a server that has all the streams it takes, as Realtime refuses a crowd over its quota), the page
 * says `Live updates delayed` and still shows a new score within one poll, until the stream is back.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_POLL_JITTER_MS, MATCH_POLL_MS, PUBLIC_MATCH_BROWSER_SECONDS } from '../../src/domain/live-updates.ts';
import { REOPEN_FIRST_MS } from '../../src/lib/match-updates.ts';
import {
  Client,
  createAdmin,
  createMatch,
  database,
  fund,
  registerPlayer,
  type Db,
  type Player,
} from '../support/api.ts';
import { browserSuite, type BrowserSuite } from '../support/browser.ts';
import { subscribe, type SseClient } from '../support/sse.ts';

/** A new browser tab signed in as `player` (the session cookie from the API registration). */
async function signedInTab(suite: BrowserSuite, player: Player): Promise<Page> {
  const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = player.client.cookie!.split('=');
  await context.addCookies([{ name, value, url: suite.server.url }]);
  return context.newPage();
}

describe('live match updates in the browser', () => {
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

  /** The player's tab at `path`, once its live stream is open. */
  async function playerPage(path: string): Promise<Page> {
    const page = await signedInTab(suite, player);
    // The server subscribes a stream before it answers with its headers, and its feed already listens
    // (beforeAll): once the page has the stream's response, no later update can be missed.
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/live/matches');
    await page.goto(`${suite.server.url}${path}`);
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

describe('live match updates in the browser when the live stream is refused', () => {
  const suite = browserSuite(undefined, { env: { LIVE_MAX_STREAMS: '1' } });
  let db: Db;
  let admin: Player;
  /** The one stream the server takes (LIVE_MAX_STREAMS=1), held by the test: the page's is refused. */
  let holder: SseClient;

  beforeAll(async () => {
    holder = await subscribe(`${suite.server.url}/api/live/matches`);
    db = database();
    admin = await createAdmin(suite.server, db);
  });
  afterAll(async () => {
    holder?.close();
    await db?.end();
  });

  it('says "Live updates delayed", shows a new score within one poll, and is live again once the stream is back', async () => {
    const match = await createMatch(admin, { live: true, team1: 1, team2: 2 });
    const score = (team1_score: string, current_over: number) =>
      admin.client.patch(`/api/admin/matches/${match.id}/update-live`, {
        team1_score,
        team2_score: '',
        current_innings: 1,
        current_over,
      });
    expect(await new Client(suite.server.url).streamStatus('/api/live/matches'), 'a second stream is refused').toBe(
      503,
    );
    const page = await signedInTab(suite, await registerPlayer(suite.server));
    await page.goto(`${suite.server.url}/live/${match.id}`);
    await page.getByText('Live updates delayed', { exact: true }).waitFor();

    expect((await score('88/3', 11.2)).status).toBe(200);
    // the next poll asks past the browser's own copy (kept a second) and finds the new score
    const onePoll = MATCH_POLL_MS + MATCH_POLL_JITTER_MS + PUBLIC_MATCH_BROWSER_SECONDS * 1000;
    await page
      .getByLabel('MI score')
      .getByText('88/3')
      .waitFor({ timeout: onePoll + 1000 });
    await expect(page.getByText('Live updates delayed', { exact: true }).isVisible()).resolves.toBe(true);

    // the stream is free again: the page's next try takes it (its waits so far: 5, 10 and 20 s, ±50 %)
    holder.close();
    const reopened = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/live/matches' && response.status() === 200,
      { timeout: (REOPEN_FIRST_MS + 2 * REOPEN_FIRST_MS + 4 * REOPEN_FIRST_MS) * 1.5 },
    );
    await reopened;
    await page.getByText('Live updates delayed', { exact: true }).waitFor({ state: 'hidden' });
    expect((await score('92/3', 11.5)).status).toBe(200);
    await page.getByLabel('MI score').getByText('92/3').waitFor({ timeout: 2000 });
    await page.context().close();
  });
});
