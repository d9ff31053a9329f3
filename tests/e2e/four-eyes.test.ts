/**
 * No insider alone, in the browser: two admins, each in their own browser. A large deposit no gateway
 * confirmed is approved by one (the toast says a second administrator must approve it; the same admin again
 * is refused) and completed by the other; a raised daily credit cap waits on the Settings screen until the
 * other admin approves it there. The rules themselves are pgTAP's and the API tests'.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balance,
  createAdmin,
  database,
  depositReference,
  reconcile,
  registerPlayer,
  type Db,
  type Player,
} from '../support/api.ts';
import { browserSuite } from '../support/browser.ts';

describe('no insider alone, in the browser', () => {
  const suite = browserSuite();
  let db: Db;
  let first: Player;
  let second: Player;

  beforeAll(async () => {
    db = database();
    first = await createAdmin(suite.server, db);
    second = await createAdmin(suite.server, db);
  });
  afterAll(() => db?.end());

  /** A tab signed in as `account` (its API session cookie) on `path`. */
  async function pageAs(account: Player, path: string): Promise<Page> {
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = account.client.cookie!.split('=');
    await context.addCookies([{ name, value, url: suite.server.url }]);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}${path}`);
    return page;
  }

  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

  /** Approve on the row, then Approve in the confirmation; answers the dialog (it stays open on a refusal). */
  async function approve(page: Page, id: number) {
    await page.getByTestId(`transaction-${id}`).getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Approve Transaction' });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    return dialog;
  }

  it('a large deposit no gateway confirmed takes two admins: the first is told so, the second completes it', async () => {
    const player = await registerPlayer(suite.server);
    const deposit = await player.client.post('/api/wallet/deposit', {
      amount: 60_000,
      paymentMethod: 'upi',
      reference: depositReference(),
    });
    expect(deposit.status).toBe(201);
    const { id } = deposit.body;

    const firstPage = await pageAs(first, '/admin/transactions?type=deposit&status=pending');
    await approve(firstPage, id);
    await toast(firstPage, 'Approval recorded');
    await toast(firstPage, 'A second administrator must approve deposits of ₹50,000 or more');
    expect(await balance(db, player.id)).toBe(0);
    const refused = await approve(firstPage, id);
    await toast(firstPage, '403: A second administrator must approve this deposit');
    await refused.getByRole('button', { name: 'Cancel' }).click();
    expect(await balance(db, player.id)).toBe(0);

    const secondPage = await pageAs(second, '/admin/transactions?type=deposit&status=pending');
    await approve(secondPage, id);
    await toast(secondPage, 'Transaction approved');
    expect(await balance(db, player.id)).toBe(60_000);
    expect(await reconcile(db)).toEqual([]);
  });

  it('a raised daily credit cap waits on the Settings screen until another admin approves it', async () => {
    const { admin_credit_per_day: cap } = (await first.client.get('/api/admin/settings')).body;
    const label = 'Credits per admin per day (₹)';
    const firstPage = await pageAs(first, '/admin/settings');
    const field = firstPage.getByRole('textbox', { name: label });
    await field.fill(String(cap + 1));
    await firstPage.getByRole('button', { name: 'Save Settings' }).click();
    await toast(firstPage, 'Change sent for approval');
    await toast(firstPage, 'A second administrator must approve this change');
    const waiting = firstPage.getByRole('list', { name: 'Changes waiting for approval' }).getByRole('listitem');
    await waiting.getByRole('button', { name: 'Withdraw' }).waitFor();
    expect(await field.inputValue(), 'the form shows the setting in force').toBe(String(cap));

    const secondPage = await pageAs(second, '/admin/settings');
    const change = secondPage.getByRole('list', { name: 'Changes waiting for approval' }).getByRole('listitem');
    await change.getByText(`Proposed by ${first.username}`, { exact: false }).waitFor();
    await change.getByRole('button', { name: 'Approve' }).click();
    await toast(secondPage, 'Change approved');
    await secondPage.getByText('No changes are waiting.').waitFor();
    const secondField = secondPage.getByRole('textbox', { name: label });
    await expect.poll(() => secondField.inputValue()).toBe(String(cap + 1));

    // lowering it again is a tightening: it applies at once
    await secondField.fill(String(cap));
    await secondPage.getByRole('button', { name: 'Save Settings' }).click();
    await toast(secondPage, 'Settings saved');
    expect((await second.client.get('/api/admin/settings')).body.admin_credit_per_day).toBe(cap);
  });
});
