/**
 * The player's journey in a real Chromium against the real server (Deno API + built SPA + Postgres):
 * register → deposit through the sandbox gateway → bet on a live match → My Bets 'In Progress' → add a
 * bank account → request a withdrawal; the gateway redirect surviving a closed Recharge dialog and an
 * abandoned payment resumed; the refusals a player meets (a bet under the minimum or over the balance, a
 * withdrawal without a qualifying deposit); screenshots at 375 and 1280 px.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newBankAccount } from '../support/api.ts';
import { artifacts, browserSuite } from '../support/browser.ts';

describe('player journey', () => {
  let liveMatchId: number;
  const suite = browserSuite(async (sql) => {
    // Test data straight into the test database as its owner: one live and one upcoming match.
    const [live] = await sql<{ id: string }[]>`
      insert into public.matches (team1_id, team2_id, start_time, status, match_type, venue, team1_score, current_innings, current_over, live_updated_at)
      values (1, 2, now() - interval '1 hour', 'live', 't20', 'Wankhede Stadium, Mumbai', '142/3', 1, 15.2, now())
      returning id`;
    await sql`
      insert into public.matches (team1_id, team2_id, start_time, status, match_type, venue)
      values (3, 4, now() + interval '1 day', 'upcoming', 'ipl', 'M. Chinnaswamy Stadium')`;
    liveMatchId = Number(live.id);
  });

  async function newPage(width = 1280, height = 900): Promise<{ page: Page; errors: string[] }> {
    const context = await suite.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, errors };
  }

  /** Registers from /auth (staying there when already on it) and waits for the page it leads to. */
  async function register(page: Page, prefix: string, landing = '/'): Promise<string> {
    const username = `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    if (!page.url().endsWith('/auth')) await page.goto(`${suite.server.url}/auth`);
    await page.getByRole('tab', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByLabel('Full Name').fill('Asha Rao');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Email').fill(`${username}@example.com`);
    await form.getByLabel('Password').fill('secret123');
    await form.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Registration successful').waitFor();
    await page.waitForURL(`${suite.server.url}${landing}`);
    // the deposit-limit prompt before a first deposit has its own test (tests/api/account.test.ts)
    expect(
      (
        await page.request.post(`${suite.server.url}/api/account/limit-prompt`, { data: { answer: 'not_now' } })
      ).status(),
    ).toBe(201);
    return username;
  }

  async function openWalletTab(page: Page, tab: string) {
    if (!page.url().endsWith('/wallet')) await page.goto(`${suite.server.url}/wallet`);
    await page.getByRole('tab', { name: tab }).click();
  }

  async function depositThroughSandbox(page: Page, amount: number) {
    await openWalletTab(page, 'Deposit');
    const form = page.getByRole('form', { name: 'Deposit funds' });
    await form.getByLabel('Amount (₹)').fill(String(amount));
    await form.getByRole('button', { name: 'Proceed to Pay' }).click();
    await page.getByText('Deposit request created').waitFor();
    await page.waitForURL(/\/api\/payments\/sandbox\?/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${suite.server.url}/wallet`);
  }

  async function addBankAccount(page: Page) {
    // a bank account belongs to one account: one nobody holds
    const { account_number: number } = newBankAccount();
    await openWalletTab(page, 'Bank Accounts');
    const form = page.getByRole('form', { name: 'Add bank account' });
    await form.getByLabel('Account Holder Name').fill('Asha Rao');
    await form.getByLabel('Bank Name').fill('HDFC Bank');
    await form.getByLabel('Account Number', { exact: true }).fill(number);
    await form.getByLabel('Confirm Account Number').fill(number);
    await form.getByLabel('IFSC Code').fill('hdfc0001234');
    await form.getByRole('button', { name: 'Add Bank Account' }).click();
    await page.getByText('Bank account added').waitFor();
    await page.getByRole('list', { name: 'Bank accounts' }).getByText('HDFC Bank').waitFor();
  }

  async function requestWithdrawal(page: Page, amount: number) {
    await openWalletTab(page, 'Withdraw');
    const form = page.getByRole('form', { name: 'Withdraw funds' });
    await form.getByLabel('Amount (₹)').fill(String(amount));
    await form.getByRole('button', { name: 'Request Withdrawal' }).click();
  }

  async function bet(page: Page, team: RegExp, amount: number) {
    await page.goto(`${suite.server.url}/live/${liveMatchId}`);
    const teamCard = page.getByRole('button', { name: team });
    if ((await teamCard.getAttribute('aria-pressed')) !== 'true') await teamCard.click();
    await page.getByLabel('Bet amount (₹)').fill(String(amount));
    await page.getByRole('button', { name: 'Place Bet' }).click();
  }

  it('registers, deposits through the gateway, bets, sees the bet and withdraws', async () => {
    const { page, errors } = await newPage();
    await register(page, 'journey');
    await expect(page.getByTestId('balance-chip').textContent()).resolves.toBe('₹0');

    await depositThroughSandbox(page, 2000);
    await page.getByTestId('wallet-balance').getByText('₹2,000').waitFor();
    await page.getByRole('list', { name: 'Transaction list' }).getByText('+₹2,000').waitFor();

    await bet(page, /MI 3\.00 Mumbai Indians/, 1000);
    await page.getByText('Bet placed successfully').waitFor();
    await page.getByTestId('balance-chip').getByText('₹1,000').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Bets' }).click();
    await page.waitForURL(`${suite.server.url}/my-bets`);
    const bets = page.getByRole('list', { name: 'Bets' });
    await bets.getByText('In Progress').waitFor();
    await expect(bets.getByRole('listitem').count()).resolves.toBe(1);
    await expect(bets.textContent()).resolves.toContain('MI vs CSK');

    await addBankAccount(page);
    await requestWithdrawal(page, 500);
    await page.getByText('Withdrawal request submitted').waitFor();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('list', { name: 'Transaction list' }).getByText('-₹500').waitFor();
    expect(errors).toEqual([]);
  });

  it('goes to the gateway although the Recharge dialog is closed right after the request, and resumes an abandoned payment', async () => {
    const { page, errors } = await newPage();
    await register(page, 'recharge');
    await page.getByRole('button', { name: 'Recharge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Funds to Wallet' });
    const form = dialog.getByRole('form', { name: 'Deposit funds' });
    await form.getByLabel('Amount (₹)').fill('1500');
    await form.getByRole('button', { name: 'Proceed to Pay' }).click();
    await page.getByText('Deposit request created').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForURL(/\/api\/payments\/sandbox\?/);

    // the player leaves the gateway without paying; the wallet offers the pending deposit's payment again
    await page.goto(`${suite.server.url}/wallet`);
    const list = page.getByRole('list', { name: 'Transaction list' });
    await list.getByRole('button', { name: /^Pay now REF-/ }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\?amount=1500&/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${suite.server.url}/wallet`);
    await page.getByTestId('wallet-balance').getByText('₹1,500').waitFor();
    await list.getByText('+₹1,500').waitFor();
    await expect(list.getByRole('button', { name: /^Pay now/ }).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });

  it('refuses a bet under ₹1000, a bet over the balance and a withdrawal without a ₹1,000 deposit', async () => {
    const { page, errors } = await newPage();
    await register(page, 'refused');

    await bet(page, /CSK 3\.00 Chennai Super Kings/, 900);
    await page.getByText('Please enter an amount of at least ₹1000.').waitFor();

    await page.getByLabel('Bet amount (₹)').fill('1000');
    await page.getByRole('button', { name: 'Place Bet' }).click();
    await page.getByText("You don't have enough funds in your wallet. Please recharge your wallet.").waitFor();

    await depositThroughSandbox(page, 500);
    await page.getByTestId('wallet-balance').getByText('₹500').waitFor();
    await addBankAccount(page);
    await requestWithdrawal(page, 500);
    await page.getByText('You need to have made at least one deposit of ₹1,000 or more to withdraw funds').waitFor();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByRole('list', { name: 'Transaction list' }).getByText('-₹500').count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });

  it('lays out Home, the live match and the wallet at 375 and 1280 px (screenshots)', async () => {
    const { page: first } = await newPage();
    await register(first, 'shots');
    const state = await first.context().storageState();
    for (const [width, height] of [
      [375, 812],
      [1280, 900],
    ] as const) {
      const context = await suite.newContext({ viewport: { width, height }, storageState: state });
      const page = await context.newPage();
      for (const [name, route, ready] of [
        ['home', '/', 'IPL Season 2025'],
        ['live-match', `/live/${liveMatchId}`, 'Place Your Bet'],
        ['wallet', '/wallet', 'My Wallet'],
      ] as const) {
        await page.goto(`${suite.server.url}${route}`);
        await page.getByRole('heading', { name: ready }).waitFor();
        await page.waitForLoadState('networkidle');
        // No horizontal scrolling at this width.
        await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(artifacts, `${name}-${width}.png`), fullPage: true });
      }
      const bottomBar = page.getByRole('navigation', { name: 'Bottom navigation' });
      await expect(bottomBar.isVisible()).resolves.toBe(width < 768);
    }
  });

  it('shows the 404 page, returns a player to the guarded page after sign-in and sends them away from /admin', async () => {
    const { page } = await newPage(375, 812);
    await page.goto(`${suite.server.url}/no-such-page`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    await page.goto(`${suite.server.url}/wallet`);
    await page.waitForURL(`${suite.server.url}/auth`);
    await register(page, 'guard', '/wallet'); // back to the guarded page after signing in
    await page.getByRole('heading', { name: 'My Wallet' }).waitFor();
    await page.goto(`${suite.server.url}/admin`);
    await page.waitForURL(`${suite.server.url}/`);
  });
});
