/**
 * Reality checks and the deposit-limit prompt in a real Chromium against the real server: after an hour of
 * play (Playwright's clock moves the page's time; the figures come from the server) a dialog says how long
 * the player has played and the session's net result, and 'Take a break' leads to the time-out; a player's
 * first Recharge asks about a deposit limit before the amount, and the second does not.
 */
import postgres from 'postgres';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser.ts';
import { requireEnv } from '../support/server.ts';

describe('reality checks and the deposit-limit prompt', () => {
  const suite = browserSuite();

  /** A phone-sized page with Playwright's clock installed, signed in as a new player on the home page. */
  async function newPlayer(): Promise<{ page: Page; username: string; errors: string[] }> {
    const context = await suite.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.clock.install();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const username = `rc${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    await page.goto(`${suite.server.url}/auth`);
    await page.getByRole('tab', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByLabel('Full Name').fill('Meera Iyer');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Email').fill(`${username}@example.com`);
    await form.getByLabel('Password').fill('secret123');
    await form.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByRole('heading', { name: 'Wallet', level: 2 }).waitFor();
    return { page, username, errors };
  }

  /**
   * `minutes` of play: the page's clock moves on (Playwright's clock) and so does the server's view of the
   * session (its start moves back), as both would in that time.
   */
  async function play(page: Page, username: string, minutes: number) {
    const sql = postgres(requireEnv('DATABASE_URL'), { max: 1, onnotice: () => {} });
    try {
      await sql`
        update app.sessions set play_started_at = play_started_at - make_interval(mins => ${minutes})
        where user_id = (select id from public.users where username = ${username})`;
    } finally {
      await sql.end();
    }
    await page.clock.fastForward(minutes * 60_000);
  }

  it('shows a reality check after an hour of play, with the net result, and Take a break leads to the time-out', async () => {
    const { page, username, errors } = await newPlayer();
    const clock = page.getByTestId('session-clock');
    await clock.getByText('0:00').waitFor();

    await play(page, username, 59);
    await clock.getByText('0:59').waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);

    await play(page, username, 1);
    const check = page.getByRole('alertdialog', { name: 'Reality check' });
    await check.getByText(/^You have been playing for 1 hour/).waitFor();
    await check.getByText('Net result this session: ₹0').waitFor();
    await check.getByRole('button', { name: 'Continue' }).click();
    await check.waitFor({ state: 'hidden' });

    // the next one comes an interval later
    await play(page, username, 30);
    await clock.getByText('1:30').waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await play(page, username, 30);
    await check.getByText(/^You have been playing for 2 hours/).waitFor();
    await check.getByRole('button', { name: 'Take a break' }).click();
    await page.waitForURL(`${suite.server.url}/responsible-gambling#take-a-break`);
    await page.getByRole('heading', { name: 'Time-out' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('asks about a deposit limit before the first deposit only', async () => {
    const { page, errors } = await newPlayer();
    await page.getByRole('button', { name: 'Recharge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Funds to Wallet' });
    const prompt = dialog.getByRole('form', { name: 'Deposit limit before your first deposit' });
    await prompt.getByText('Would you like to set a deposit limit before your first deposit?').waitFor();
    expect(await dialog.getByLabel('Amount (₹)').count()).toBe(0);
    await prompt.getByLabel('Period').selectOption('weekly');
    await prompt.getByLabel('Limit (₹)').fill('3000');
    await prompt.getByRole('button', { name: 'Set limit' }).click();

    const form = dialog.getByRole('form', { name: 'Deposit funds' });
    await form.getByText('You can deposit ₹3,000 more under your weekly limit of ₹3,000.').waitFor();
    await form.getByLabel('Amount (₹)').fill('1000');
    await form.getByRole('button', { name: 'Proceed to Pay' }).click();
    await page.waitForURL(/\/api\/payments\/sandbox\?/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${suite.server.url}/wallet`);
    await page.getByTestId('wallet-balance').getByText('₹1,000').waitFor();

    await page.getByRole('button', { name: 'Recharge' }).click();
    await dialog.getByRole('form', { name: 'Deposit funds' }).getByLabel('Amount (₹)').waitFor();
    expect(await dialog.getByText('Would you like to set a deposit limit before your first deposit?').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
