/**
 * One person, one account, in the browser: a self-excluded player opens a second account on their own phone;
 * the admin finds it on the user's page under Linked accounts (same device) and applies the exclusion there,
 * after which the second account can no longer bet. The rules themselves are pgTAP's and the API tests'.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createMatch, database, fund, registerPlayer, type Db, type Player } from '../support/api.ts';
import { browserSuite } from '../support/browser.ts';

describe('one person, one account, in the browser', () => {
  const suite = browserSuite();
  let db: Db;
  let admin: Player;

  beforeAll(async () => {
    db = database();
    admin = await createAdmin(suite.server, db);
  });
  afterAll(() => db?.end());

  async function pageAs(account: Player, path: string): Promise<Page> {
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = account.client.cookie!.split('=');
    await context.addCookies([{ name, value, url: suite.server.url }]);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}${path}`);
    return page;
  }

  it("an admin finds a self-excluded player's second account by its device and applies the exclusion to it", async () => {
    const excluded = await registerPlayer(suite.server);
    expect((await excluded.client.post('/api/account/self-exclusion', { months: 6 })).status).toBe(201);
    const second = await registerPlayer(suite.server, {}, { sameBrowserAs: excluded });
    await fund(suite.server, second, 2000);
    const match = await createMatch(admin, { live: true });
    const bet = () => second.client.post('/api/bets', { match_id: match.id, team_id: 1, amount: 1000 });
    expect((await bet()).status).toBe(201);

    const page = await pageAs(admin, `/admin/users/${second.id}`);
    const card = page.getByRole('region', { name: 'Linked accounts' });
    const linked = card.getByRole('listitem', { name: excluded.username });
    await linked.getByText(/^Same device: last signed in with it on /).waitFor();
    await linked.getByText(/^self-exclusion until /).waitFor();
    await linked.getByRole('button', { name: 'Apply their self-exclusion here' }).click();
    await page.getByText('Exclusion applied', { exact: true }).first().waitFor();
    await linked.getByText('Binds this account too.').waitFor();
    await page
      .getByRole('region', { name: 'Player Protection' })
      .getByText(/^Until /)
      .first()
      .waitFor();

    await second.client.post('/api/login', { username: second.username, password: second.password });
    const refused = await bet();
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^Self-exclusion: You cannot bet or deposit until /);
  });
});
