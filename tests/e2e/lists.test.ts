/**
 * Lists paged and searched by the server, end to end (real server serving the built SPA, Chromium): the
 * wallet's Load More fetches the next 10 from the API, the admin search finds a user by a fragment of the
 * email, and the dashboard's pending-withdrawals link opens the filtered list.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  database,
  depositReference,
  fund,
  newBankAccount,
  reconcile,
  registerPlayer,
  unique,
  type Db,
  type Player,
} from '../support/api.ts';
import { browserSuite } from '../support/browser.ts';

const suite = browserSuite();
let db: Db;

beforeAll(() => {
  db = database();
});
afterEach(async () => expect(await reconcile(db)).toEqual([]));
afterAll(() => db?.end());

/** A fresh browser (own cookies) signed in through the login form; records the API lists it asks for. */
async function signIn(account: Pick<Player, 'username' | 'password'>): Promise<{ page: Page; requests: string[] }> {
  const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) requests.push(`${url.pathname}${url.search}`);
  });
  await page.goto(`${suite.server.url}/auth`);
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('Username').fill(account.username);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  return { page, requests };
}

describe('lists paged and searched by the server', () => {
  it('Load More on the wallet shows the next 10 transactions, fetched from the server', async () => {
    const player = await registerPlayer(suite.server);
    await fund(suite.server, player, 1000);
    // 24 more rows (pending deposits move no money), amounts 501…524 so each row is recognisable
    await db`
      insert into public.transactions (user_id, amount, type, status, reference_id, payment_method)
      select ${player.id}, 500 + g, 'deposit', 'pending', ${depositReference()} || '-' || g, 'upi'
      from generate_series(1, 24) g order by g`;
    const { page, requests } = await signIn(player);
    await page.goto(`${suite.server.url}/wallet`);
    const rows = page.getByRole('list', { name: 'Transaction list' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(10);
    await expect.poll(() => rows.first().textContent()).toContain('+₹524');

    await page.getByRole('button', { name: 'Load More' }).click();
    await expect.poll(() => rows.count()).toBe(20);
    await expect.poll(() => rows.nth(19).textContent()).toContain('+₹505');
    const pages = requests.filter((path) => path.startsWith('/api/wallet/transactions?limit=10'));
    expect(pages).toHaveLength(2);
    expect(pages[1]).toMatch(/&cursor=[A-Za-z0-9_-]+$/);

    await page.getByRole('button', { name: 'Load More' }).click();
    await expect.poll(() => rows.count()).toBe(25);
    await expect.poll(() => rows.last().textContent()).toContain('+₹1,000');
    await expect.poll(() => page.getByRole('button', { name: 'Load More' }).count()).toBe(0);
  });

  it('the admin search finds a user by a fragment of the email', async () => {
    const admin = await createAdmin(suite.server, db);
    const tag = unique('mail').toLowerCase();
    const target = await registerPlayer(suite.server, { email: `${tag}@fragment.example.com` });
    await registerPlayer(suite.server);
    const { page, requests } = await signIn(admin);
    await page.goto(`${suite.server.url}/admin/users`);
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await page.getByPlaceholder('Search users...').fill(tag.slice(3, 11).toUpperCase());
    const table = page.getByRole('table', { name: 'Users' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await table.locator('tbody tr').first().textContent()).toContain(target.username);
    // typed at once, searched once
    expect(requests.filter((path) => path.startsWith('/api/admin/users?q='))).toEqual([
      `/api/admin/users?q=${tag.slice(3, 11).toUpperCase()}&limit=50`,
    ]);

    await page.getByPlaceholder('Search users...').fill('no-such-user-anywhere');
    await page.getByText('No users found').waitFor();
    await page.getByText('Try adjusting your search filters.').waitFor();
  });

  it("the dashboard's pending withdrawals link opens the list of pending withdrawals", async () => {
    const admin = await createAdmin(suite.server, db);
    const player = await registerPlayer(suite.server);
    await fund(suite.server, player, 5000);
    const account = await player.client.post('/api/bank-accounts', newBankAccount('List Player'));
    const withdrawal = await player.client.post('/api/wallet/withdraw', {
      amount: 700,
      bankAccountId: account.body.id,
    });
    expect(withdrawal.status).toBe(201);
    const { page, requests } = await signIn(admin);
    await page.goto(`${suite.server.url}/admin`);
    await page.locator('a[href="/admin/transactions?type=withdrawal&status=pending"]').first().click();
    await page.waitForURL(
      (url) => url.pathname === '/admin/transactions' && url.search === '?type=withdrawal&status=pending',
    );
    const table = page.getByRole('table', { name: 'Transactions' });
    await page.getByTestId(`transaction-${withdrawal.body.id}`).waitFor();
    expect(await page.getByRole('tab', { name: 'Pending Withdrawals' }).getAttribute('aria-selected')).toBe('true');
    const statuses = await table.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(new Set(statuses)).toEqual(new Set(['Withdrawal']));
    expect(requests).toContain('/api/admin/transactions?type=withdrawal&status=pending&limit=50');
  });
});
