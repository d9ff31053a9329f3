/**
 * The installable app in a real Chromium against the built SPA: the manifest and the service worker are in
 * place and Chromium finds the app installable; offline, the pages already open keep what they loaded (marked
 * with its time) and a reload still opens the app from the service worker's precache, with 'You're offline'
 * and every money button disabled; the API is never answered from a cache; back online, the figures return.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser.ts';

const CONNECT = 'Connect to the internet to continue';

describe('installable and offline-aware', () => {
  let liveMatchId: number;
  const suite = browserSuite(async (sql) => {
    const [live] = await sql<{ id: string }[]>`
      insert into public.matches (team1_id, team2_id, start_time, status, match_type, venue, team1_score, current_innings, current_over, live_updated_at)
      values (7, 8, now() - interval '1 hour', 'live', 't20', 'Sawai Mansingh Stadium, Jaipur', '54/1', 1, 6.2, now())
      returning id`;
    liveMatchId = Number(live.id);
  });

  /** A phone-sized page signed in as a new player, on the home page, its service worker active. */
  async function signedInPhone(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await suite.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const username = `pwa${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
    await page.goto(`${suite.server.url}/auth`);
    await page.getByRole('tab', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByLabel('Full Name').fill('Kiran Das');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Email').fill(`${username}@example.com`);
    await form.getByLabel('Password').fill('secret123');
    await form.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${suite.server.url}/`);
    await page.getByRole('heading', { name: 'Wallet', level: 2 }).waitFor();
    // registered after the first paint; ready once installed (the precache filled) and active
    const script = await page.evaluate(() =>
      navigator.serviceWorker.ready.then((registration) => registration.active?.scriptURL),
    );
    expect(script).toBe(`${suite.server.url}/sw.js`);
    return { context, page, errors };
  }

  it("installs: the manifest, the service worker and Chromium's installability checks", async () => {
    const { context, page, errors } = await signedInPhone();
    const manifest = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
      return link ? (await fetch(link.href)).json() : null;
    });
    expect(manifest).toMatchObject({
      name: 'Cricket League Betting',
      short_name: 'Cricket Bets',
      display: 'standalone',
      start_url: '/',
    });
    expect(manifest.icons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sizes: '192x192', type: 'image/png' }),
        expect.objectContaining({ sizes: '512x512', purpose: 'any' }),
        expect.objectContaining({ sizes: '512x512', purpose: 'maskable' }),
      ]),
    );
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    // a test's browser context is an incognito profile, where no app installs: every other check passes
    expect(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('offline: keeps what was loaded, opens from the precache, disables every money button; back online, refetches', async () => {
    const { context, page, errors } = await signedInPhone();
    await page.goto(`${suite.server.url}/live/${liveMatchId}`);
    await page.getByRole('button', { name: /RR 3\.00 Rajasthan Royals/ }).click();
    const placeBet = page.getByRole('button', { name: 'Place Bet' });
    await expect(placeBet.isEnabled()).resolves.toBe(true);

    await context.setOffline(true);
    await page.getByText("You're offline", { exact: true }).waitFor();
    await expect(placeBet.isDisabled()).resolves.toBe(true);
    await page.getByText(CONNECT).waitFor();
    await page.getByText(/^Last updated \d{1,2}:\d{2}\s?[ap]m$/i).waitFor();
    await page.getByText('54/1').first().waitFor();
    // nothing personal is answered from a cache (the public match reads alone may be a copy of a few seconds)
    expect(
      await page.evaluate(() =>
        fetch('/api/user').then(
          (answer) => answer.status,
          () => 'no answer',
        ),
      ),
    ).toBe('no answer');

    // a page opened (and reloaded) without a network comes from the service worker's precache
    await page.goto(`${suite.server.url}/wallet`);
    await page.getByRole('heading', { name: 'My Wallet', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'My Wallet', level: 1 }).waitFor();
    await page.getByText("You're offline", { exact: true }).waitFor();
    await expect(page.getByTestId('wallet-balance').textContent()).resolves.toBe('—');
    await page.getByRole('tab', { name: 'Deposit' }).click();
    const pay = page.getByRole('button', { name: 'Proceed to Pay' });
    await pay.waitFor();
    await expect(pay.isDisabled()).resolves.toBe(true);
    await page.getByText(CONNECT).waitFor();

    await context.setOffline(false);
    await page.getByText("You're offline", { exact: true }).waitFor({ state: 'hidden' });
    await page.getByTestId('wallet-balance').getByText('₹0').waitFor();
    // the player's protection has loaded too: before their first deposit, the deposit-limit question
    await page.getByText('Would you like to set a deposit limit before your first deposit?').waitFor();
    expect(errors).toEqual([]);
  });
});
