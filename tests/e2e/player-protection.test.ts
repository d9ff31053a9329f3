/**
 * Player protection in a real Chromium against the real server: a player sets a deposit limit from the
 * Responsible gambling page (reached from the user menu) and the deposit form holds to it; a self-excluded
 * player (who found the page from the footer) sees on the bet slip why it is closed and until when.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifacts, browserSuite } from '../support/browser.ts';

describe('player protection', () => {
  let liveMatchId: number;
  const suite = browserSuite(async (sql) => {
    const [live] = await sql<{ id: string }[]>`
      insert into public.matches (team1_id, team2_id, start_time, status, match_type, venue, team1_score, current_innings, current_over, live_updated_at)
      values (5, 6, now() - interval '1 hour', 'live', 't20', 'Eden Gardens, Kolkata', '98/2', 1, 11.4, now())
      returning id`;
    liveMatchId = Number(live.id);
  });

  async function signedInPage(width: number): Promise<{ page: Page; errors: string[] }> {
    const context = await suite.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const username = `rg${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    await page.goto(`${suite.server.url}/auth`);
    await page.getByRole('tab', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByLabel('Full Name').fill('Ravi Kumar');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Email').fill(`${username}@example.com`);
    await form.getByLabel('Password').fill('secret123');
    await form.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${suite.server.url}/`);
    // the URL changes before the home page's chunk has arrived: start from the page itself
    await page.getByRole('heading', { name: 'Wallet', level: 2 }).waitFor();
    return { page, errors };
  }

  it('sets a daily deposit limit, and the deposit form holds to it', async () => {
    const { page, errors } = await signedInPage(1280);
    await page.getByRole('button', { name: 'User menu for Ravi Kumar' }).click();
    await page.getByRole('menuitem', { name: 'Responsible gambling' }).click();
    await page.waitForURL(`${suite.server.url}/responsible-gambling`);
    await page.getByRole('heading', { name: 'Responsible gambling', level: 1 }).waitFor();

    const limits = page.getByRole('form', { name: 'Set a deposit limit' });
    await limits.getByLabel('Period').selectOption('daily');
    await limits.getByLabel('Limit (₹)').fill('2000');
    await limits.getByRole('button', { name: 'Set limit' }).click();
    await page.getByText('Your daily limit is ₹2,000 from now on.').waitFor();
    expect(await page.getByLabel('Deposit limits by period').innerText()).toMatch(
      /Daily \(24 hours\)\s+₹2,000 · ₹2,000 left/,
    );

    await page.goto(`${suite.server.url}/wallet`);
    await page.getByRole('tab', { name: 'Deposit' }).click();
    const deposit = page.getByRole('form', { name: 'Deposit funds' });
    await deposit.getByText('You can deposit ₹2,000 more under your daily limit of ₹2,000.').waitFor();
    await deposit.getByLabel('Amount (₹)').fill('5000');
    await deposit.getByRole('button', { name: 'Proceed to Pay' }).click();
    await page.getByText('409: Deposit limit reached: Your daily limit is ₹2,000 and ₹2,000 is left.').waitFor();
    expect(page.url()).toBe(`${suite.server.url}/wallet`);
    expect(errors).toEqual([]);
  });

  it('a self-excluded player sees why the bet slip is closed and until when', async () => {
    const { page, errors } = await signedInPage(375);
    await page.getByRole('link', { name: 'Responsible gambling' }).click();
    await page.waitForURL(`${suite.server.url}/responsible-gambling`);

    await page.getByLabel('Length of the self-exclusion').selectOption('6 months');
    await page.getByRole('button', { name: 'Self-exclude' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Self-exclusion for 6 months?' });
    await dialog.getByText('This cannot be undone').waitFor();
    await dialog.getByRole('button', { name: 'Self-exclude' }).click();
    await page.getByText('Self-exclusion started').waitFor();
    const pageNotice = page.getByRole('status', { name: 'Self-exclusion', exact: true });
    await pageNotice.waitFor();
    const until = /You cannot bet or deposit until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m\./;
    expect(await pageNotice.innerText()).toMatch(until);
    await page.screenshot({ path: path.join(artifacts, 'responsible-gambling-375.png'), fullPage: true });

    await page.goto(`${suite.server.url}/live/${liveMatchId}`);
    const slip = page.getByRole('region', { name: 'Place Your Bet' });
    const notice = slip.getByRole('status', { name: 'Self-exclusion', exact: true });
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(until);
    await slip.getByRole('button', { name: /DC/ }).click();
    await slip.getByRole('textbox', { name: 'Bet amount (₹)' }).fill('1000');
    expect(await slip.getByRole('button', { name: 'Place Bet' }).isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(artifacts, 'self-excluded-bet-slip-375.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});
