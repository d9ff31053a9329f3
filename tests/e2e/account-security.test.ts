/**
 * Accounts that cannot be taken over, in a real Chromium against the real server: the Security screen
 * (password, sessions, sign out everywhere), reserved names at registration, an admin setting up two-factor
 * sign-in (after proving it is them: the password) and then signing in with a code, and a player's own browser signing in while someone else's
 * guessing slows every other browser down.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createAdmin, database, unique, type Db, type Player } from '../support/api.ts';
import { totpCode } from '../support/accounts.ts';
import { browserSuite } from '../support/browser.ts';

describe('account security', () => {
  const suite = browserSuite();
  let db: Db;

  beforeAll(() => {
    db = database();
  });
  afterAll(() => db?.end());

  async function newPage(): Promise<{ page: Page; errors: string[] }> {
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, errors };
  }

  async function register(page: Page, username: string) {
    await page.goto(`${suite.server.url}/auth`);
    await page.getByRole('tab', { name: 'Register' }).click();
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByLabel('Full Name').fill('Asha Rao');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Email').fill(`${unique('e')}@example.com`);
    await form.getByLabel('Password').fill('secret123');
    await form.getByRole('button', { name: 'Register' }).click();
  }

  async function signIn(page: Page, username: string, password: string) {
    await page.goto(`${suite.server.url}/auth`);
    const form = page.getByRole('form', { name: 'Login' });
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Login' }).click();
  }

  async function openSecurity(page: Page, name: string) {
    await page.getByRole('button', { name: `User menu for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Security' }).click();
    await page.waitForURL(`${suite.server.url}/account/security`);
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
  }

  it('changes the password, signs out another device and then everywhere from the Security screen', async () => {
    const { page, errors } = await newPage();
    const username = unique('sec');
    await register(page, username);
    await page.waitForURL(`${suite.server.url}/`);
    const phone = new Client(suite.server.url, '10.88.0.7');
    await phone.post(
      '/api/login',
      { username, password: 'secret123' },
      {
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      },
    );
    await openSecurity(page, 'Asha Rao');

    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    await devices.getByRole('listitem').nth(1).waitFor();
    expect(await devices.getByRole('listitem').count()).toBe(2);
    const mine = devices.getByRole('listitem').filter({ hasText: 'This device' });
    expect(await mine.innerText()).toMatch(/Chrome/);
    const iphone = devices.getByRole('listitem', { name: 'Safari on iOS' });
    expect(await iphone.innerText()).toContain('10.88.0.7');
    await iphone.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Safari on iOS is signed out.').waitFor();
    await iphone.waitFor({ state: 'detached' });
    expect((await phone.get('/api/user')).status).toBe(401);

    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password', { exact: true }).fill('brand-new-1');
    await form.getByLabel('Confirm new password').fill('brand-new-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Passwords do not match').waitFor();
    await form.getByLabel('Confirm new password').fill('brand-new-1');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('400: Current password is incorrect').waitFor();
    await form.getByLabel('Current password').fill('secret123');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed', { exact: true }).waitFor();
    expect((await new Client(suite.server.url).post('/api/login', { username, password: 'brand-new-1' })).status).toBe(
      200,
    );

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(`${suite.server.url}/auth`);
    const [{ count }] = await db`select count(*)::int from app.sessions s join public.users u on u.id = s.user_id
                                 where u.username = ${username}`;
    expect(count).toBe(0);
    expect(errors).toEqual([]);
  });

  it('does not let a player register a name people would take for staff', async () => {
    const { page } = await newPage();
    await register(page, 'Admin_Desk');
    await page.getByText('400: This username is not available').waitFor();
    expect(page.url()).toBe(`${suite.server.url}/auth`);
  });

  it('an admin sets up two-factor sign-in with the QR code, keeps the recovery codes and then signs in with a code', async () => {
    const admin: Player = await createAdmin(suite.server, db);
    const { page, errors } = await newPage();
    await signIn(page, admin.username, admin.password);
    await page.getByText('Login successful').waitFor();
    await page.goto(`${suite.server.url}/account/security`);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    // what a stolen session lacks: the password, asked for again
    const proof = page.getByRole('form', { name: 'Set up two-factor sign-in' });
    await proof.getByLabel('Current password').fill('not-my-password');
    await proof.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('400: Current password is incorrect').waitFor();
    await proof.getByLabel('Current password').fill(admin.password);
    await proof.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = await page.getByTestId('totp-secret').innerText();
    const confirm = page.getByRole('form', { name: 'Confirm two-factor sign-in' });
    await confirm.getByLabel('Code from the app').fill(totpCode(secret));
    await confirm.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('region', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    await codes.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('10 recovery codes left.').waitFor();
    // the page goes on with the new session the set-up gave it
    await page.reload();
    await page.getByText('10 recovery codes left.').waitFor();

    const { page: later } = await newPage();
    await signIn(later, admin.username, admin.password);
    await later.getByText('Enter the 6-digit code from your authenticator app').waitFor();
    const form = later.getByRole('form', { name: 'Login' });
    await form.getByLabel('Authentication code').fill(totpCode(secret, 1));
    await form.getByRole('button', { name: 'Login' }).click();
    await later.getByText('Login successful').waitFor();
    expect(errors).toEqual([]);
  });

  it("lets the player's own browser sign in while someone else's guessing slows every other browser down", async () => {
    const username = unique('own');
    const { page: own } = await newPage();
    await register(own, username);
    await own.waitForURL(`${suite.server.url}/`);
    await own.getByRole('button', { name: 'User menu for Asha Rao' }).click();
    await own.getByRole('menuitem', { name: 'Logout' }).click();
    await own.waitForURL(`${suite.server.url}/auth`);
    // someone has just failed 56 times from 56 addresses
    await db`insert into app.login_attempts (action, username, ip, success)
             select 'login', ${username}, '10.201.0.' || g, false from generate_series(1, 56) g`;

    const { page: other } = await newPage();
    await signIn(other, username, 'secret123');
    await other.getByText('429: Too many attempts for this username. Please try again in a minute.').waitFor();

    await signIn(own, username, 'secret123');
    await own.getByText('Login successful').waitFor();
  });
});
