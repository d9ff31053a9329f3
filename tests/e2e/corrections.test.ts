/**
 * A wrong result corrected, in the browser: two admins, each in their own browser, and the player whose bet
 * was paid by mistake, watching the match. Admin A proposes the right winner on the match's admin page (a
 * second administrator must approve), admin B approves it there, and the player's open page shows
 * `Result corrected: {reason}`, a toast that the result was corrected, and the balance without the payout.
 * The rules themselves are pgTAP's and the API tests'.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balance,
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

const REASON = 'Wrong team tapped in the confirmation dialog';

describe('a wrong result corrected, in the browser', () => {
  const suite = browserSuite();
  let db: Db;
  let first: Player;
  let second: Player;
  let player: Player;

  beforeAll(async () => {
    db = database();
    [first, second, player] = await Promise.all([
      createAdmin(suite.server, db),
      createAdmin(suite.server, db),
      registerPlayer(suite.server),
    ]);
    await fund(suite.server, player, 5000);
  });
  afterAll(() => db?.end());

  /** A tab signed in as `account` (its API session cookie) on `path`, once its live stream is open. */
  async function pageAs(account: Player, path: string): Promise<Page> {
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = account.client.cookie!.split('=');
    await context.addCookies([{ name, value, url: suite.server.url }]);
    const page = await context.newPage();
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/live/matches');
    await page.goto(`${suite.server.url}${path}`);
    await stream;
    return page;
  }

  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
  const rupees = (amount: number) =>
    new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 }).format(amount);

  it('admin A proposes, admin B approves, and the player sees the corrected result, a toast and their balance', async () => {
    const match = await createMatch(first, { live: true, team1: 1, team2: 2 });
    const bet = await player.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });
    expect(bet.status).toBe(201);
    const declared = await first.client.patch(`/api/admin/matches/${match.id}/declare-winner`, { winning_team_id: 1 });
    expect(declared.status).toBe(200);
    await settled(db, match.id);
    const paid = await balance(db, player.id);
    expect(paid).toBe(4000 + bet.body.potential_win);

    const playerPage = await pageAs(player, `/live/${match.id}`);
    await playerPage.getByText('Mumbai Indians won the match').waitFor();
    await playerPage.getByLabel(`Balance ${rupees(paid)}`).waitFor();

    const firstPage = await pageAs(first, `/admin/matches/${match.id}`);
    const card = firstPage.getByRole('region', { name: 'Correct Result' });
    await card.getByRole('radio', { name: 'Chennai Super Kings won' }).check({ force: true });
    await card.getByRole('textbox', { name: 'Reason' }).fill(REASON);
    await card.getByRole('button', { name: 'Propose Correction' }).click();
    await toast(firstPage, 'Correction proposed');
    await toast(firstPage, 'A second administrator must approve this correction');
    await card.getByRole('button', { name: 'Withdraw' }).waitFor();
    expect(await balance(db, player.id), 'nothing moves before a second admin approves').toBe(paid);

    const secondPage = await pageAs(second, `/admin/matches/${match.id}`);
    const pending = secondPage.getByRole('list', { name: 'Result corrections' }).getByRole('listitem');
    await pending.getByText(`Reason: ${REASON}`).waitFor();
    await pending.getByRole('button', { name: 'Approve' }).click();
    await toast(secondPage, 'Correction approved');
    await secondPage.getByText(`Result corrected: ${REASON}`).waitFor();

    await playerPage.getByText('Chennai Super Kings won the match').waitFor();
    await playerPage.getByText(`Result corrected: ${REASON}`).waitFor();
    await toast(playerPage, 'The result of MI vs CSK was corrected');
    await playerPage.getByLabel(`Balance ${rupees(4000)}`).waitFor();
    await settled(db, match.id);
    expect(await balance(db, player.id)).toBe(4000);
    expect(await reconcile(db)).toEqual([]);
  });
});
