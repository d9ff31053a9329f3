/**
 * The back office end to end: real server (Deno + Postgres) serving the built SPA, Chromium. Admins are
 * created in SQL (app.create_admin), players through the API, money through the real deposit + webhook.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balance,
  createAdmin,
  database,
  depositReference,
  fund,
  newBankAccount,
  reconcile,
  registerPlayer,
  type Db,
  type Player,
} from '../support/api.ts';
import { browserSuite } from '../support/browser.ts';

const suite = browserSuite();
let db: Db;

beforeAll(() => {
  db = database();
});
afterAll(() => db?.end());

/** A fresh browser (own cookies) signed in through the login form. */
async function signIn(account: Pick<Player, 'username' | 'password'>): Promise<Page> {
  const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${suite.server.url}/auth`);
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('Username').fill(account.username);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  return page;
}

const toast = (page: Page, title: string) => page.getByText(title, { exact: true }).first().waitFor();

describe('admin back office', () => {
  it('runs a match from creation to settlement, and the player sees the live score and the win', async () => {
    const admin = await createAdmin(suite.server, db);
    const player = await registerPlayer(suite.server);
    await fund(suite.server, player, 5000);
    const adminPage = await signIn(admin);
    const playerPage = await signIn(player);

    // Create: teams, calendar date (today) and time, venue.
    await adminPage.goto(`${suite.server.url}/admin/matches/new`);
    await adminPage.getByLabel('Team 1').selectOption({ label: 'Mumbai Indians (MI)' });
    await adminPage.getByLabel('Team 2').selectOption({ label: 'Chennai Super Kings (CSK)' });
    await adminPage.locator('[data-part="table-cell-trigger"][data-today]').first().click();
    await adminPage.locator('#match-time').fill('23:30');
    await adminPage.getByLabel('Venue').fill('E2E Stadium');
    await adminPage.getByRole('button', { name: 'Create Match' }).click();
    await toast(adminPage, 'Match created');
    await adminPage.waitForURL(/\/admin\/matches\/\d+$/);
    const matchId = Number(new URL(adminPage.url()).pathname.split('/').pop());
    await adminPage.getByRole('heading', { name: `Match #${matchId}` }).waitFor();
    const [created] = await db`select status, venue, team1_id, team2_id from public.matches where id = ${matchId}`;
    expect(created).toEqual({ status: 'upcoming', venue: 'E2E Stadium', team1_id: 1, team2_id: 2 });

    // Start, then update the live score.
    await adminPage.getByRole('button', { name: 'Start Match' }).click();
    await toast(adminPage, 'Match started');
    await adminPage.getByLabel('Mumbai Indians score').fill('123/4');
    await adminPage.getByLabel('Chennai Super Kings score').fill('');
    await adminPage.getByLabel('Innings').selectOption('1');
    await adminPage.getByLabel('Over', { exact: true }).fill('12.3');
    await adminPage.getByRole('button', { name: 'Update Score' }).click();
    await toast(adminPage, 'Match updated');

    // The player's live page shows it, and the player bets ₹1,000 on MI.
    await playerPage.goto(`${suite.server.url}/live/${matchId}`);
    await expect.poll(() => playerPage.getByLabel('MI score').textContent()).toBe('123/4');
    await playerPage.getByText('Over 12.3').waitFor();
    await playerPage.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }).click();
    await playerPage.getByPlaceholder('Enter amount').fill('1000');
    await playerPage.getByRole('button', { name: 'Place Bet' }).click();
    await toast(playerPage, 'Bet placed successfully');
    expect(await balance(db, player.id)).toBe(4000);

    // The admin sees the bet and declares MI the winner.
    await adminPage.reload();
    await adminPage.getByText('1 bets placed on this match').waitFor();
    const declare = adminPage.getByRole('button', { name: 'Declare Winner & Process Bets' });
    expect(await declare.isDisabled()).toBe(true);
    await adminPage.getByText('Mumbai Indians (MI)').click();
    await declare.click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Confirm Match Winner' });
    await dialog.getByRole('button', { name: 'Confirm Winner' }).click();
    await toast(adminPage, 'Winner declared');
    await adminPage.getByText('Mumbai Indians won the match').first().waitFor();

    // The player: ₹4,000 + ₹3,000 once the settlement (a job that starts as the declaration answers) has
    // run, and My Bets shows the win.
    await expect.poll(() => balance(db, player.id), { timeout: 10_000 }).toBe(7000);
    await playerPage.goto(`${suite.server.url}/my-bets`);
    await playerPage.getByText('Won', { exact: true }).first().waitFor();
    await playerPage.getByLabel('Balance ₹7,000').first().waitFor();
    expect(await reconcile(db)).toEqual([]);
  });

  it('approves a withdrawal and rejects a deposit, moving money only for the approval', async () => {
    const admin = await createAdmin(suite.server, db);
    const player = await registerPlayer(suite.server);
    await fund(suite.server, player, 2000);
    const account = await player.client.post('/api/bank-accounts', newBankAccount('E2E Player'));
    expect(account.status).toBe(201);
    const withdrawal = await player.client.post('/api/wallet/withdraw', {
      amount: 500,
      bankAccountId: account.body.id,
    });
    expect(withdrawal.status).toBe(201);
    const deposit = await player.client.post('/api/wallet/deposit', {
      amount: 1500,
      paymentMethod: 'upi',
      reference: depositReference(),
      status: 'pending',
    });
    expect(deposit.status).toBe(201);
    expect(await balance(db, player.id)).toBe(2000);

    const adminPage = await signIn(admin);
    await adminPage.goto(`${suite.server.url}/admin/transactions?type=withdrawal&status=pending`);
    const withdrawalRow = adminPage.getByTestId(`transaction-${withdrawal.body.id}`);
    await withdrawalRow.getByRole('button', { name: 'Approve' }).click();
    const approveDialog = adminPage.getByRole('alertdialog', { name: 'Approve Transaction' });
    await approveDialog.getByText(/processed the actual bank transfer/).waitFor();
    await approveDialog.getByRole('button', { name: 'Approve' }).click();
    await toast(adminPage, 'Transaction approved');
    expect(await balance(db, player.id)).toBe(1500);

    await adminPage.getByRole('tab', { name: 'Pending', exact: true }).click();
    const depositRow = adminPage.getByTestId(`transaction-${deposit.body.id}`);
    await depositRow.getByRole('button', { name: 'Reject' }).click();
    const rejectDialog = adminPage.getByRole('alertdialog', { name: 'Reject Transaction' });
    await rejectDialog.getByText('Rejecting will mark this transaction as failed. No funds will be moved.').waitFor();
    await rejectDialog.getByRole('button', { name: 'Reject' }).click();
    await toast(adminPage, 'Transaction rejected');

    expect(await balance(db, player.id)).toBe(1500);
    const rows =
      await db`select id, status from public.transactions where id in (${withdrawal.body.id}, ${deposit.body.id}) order by id`;
    expect(rows).toEqual([
      { id: withdrawal.body.id, status: 'completed' },
      { id: deposit.body.id, status: 'failed' },
    ]);
    expect(await reconcile(db)).toEqual([]);
  });

  it('bans a user, who is signed out at once and cannot sign in again', async () => {
    const admin = await createAdmin(suite.server, db);
    const player = await registerPlayer(suite.server);
    const playerPage = await signIn(player);
    const adminPage = await signIn(admin);

    await adminPage.goto(`${suite.server.url}/admin/users/${player.id}`);
    await adminPage.getByRole('heading', { name: `Player ${player.username}` }).waitFor();
    await adminPage.getByRole('button', { name: 'Change Status' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Change User Status' });
    const update = dialog.getByRole('button', { name: 'Update' });
    expect(await update.isDisabled()).toBe(true);
    await dialog.getByLabel('Status').selectOption('banned');
    await update.click();
    await toast(adminPage, 'Status updated');
    const [row] = await db`select status from public.users where id = ${player.id}`;
    expect(row.status).toBe('banned');

    await playerPage.goto(`${suite.server.url}/my-bets`);
    await playerPage.waitForURL((url) => url.pathname === '/auth');
    const form = playerPage.getByRole('form', { name: 'Login' });
    await form.getByLabel('Username').fill(player.username);
    await form.getByLabel('Password').fill(player.password);
    await form.getByRole('button', { name: 'Login' }).click();
    await toast(playerPage, 'Login failed');
    expect(new URL(playerPage.url()).pathname).toBe('/auth');
  });

  it('sends a player who opens /admin to the home page', async () => {
    const player = await registerPlayer(suite.server);
    const page = await signIn(player);
    await page.goto(`${suite.server.url}/admin`);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'IPL Season 2025' }).waitFor();
    expect(await page.getByText('Admin Panel').count()).toBe(0);
  });
});
