// `npm run lighthouse`: mobile performance, accessibility and best practices of Home, Live match and Wallet,
// signed in, against a running server (`npm start`; LH_URL, default http://localhost:3000), with the JS each
// page loaded before its first paint; then whether Chromium finds the app installable. Lighthouse 12 from
// npm, Chromium from CHROME_PATH (default /usr/bin/chromium). A fresh player is registered for the session.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

// LH_JSON_DIR: also write each page's full report (lhr) there as JSON, to read the audits behind a score.
const jsonDir = process.env.LH_JSON_DIR;
const base = (process.env.LH_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

async function signIn() {
  const username = `lh${Date.now().toString(36)}`;
  const response = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({
      name: 'Lighthouse Player',
      username,
      email: `${username}@example.com`,
      password: 'lighthouse1',
    }),
  });
  if (!response.ok) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error('register answered no session cookie');
  return cookie;
}

async function matchId() {
  for (const status of ['live', 'upcoming']) {
    const matches = await fetch(`${base}/api/matches?status=${status}`).then((r) => r.json());
    if (matches.length > 0) return matches[0].id;
  }
  return 1;
}

/** KB (transferred, as the server compresses it) of the scripts that had arrived when the page first painted. */
function firstLoadKb(lhr) {
  const paint = lhr.audits.metrics.details.items[0].observedFirstContentfulPaint;
  const start = lhr.audits.metrics.details.items[0].observedNavigationStart ?? 0;
  const requests = lhr.audits['network-requests'].details.items;
  const bytes = requests
    .filter((request) => request.resourceType === 'Script' && request.networkEndTime - start <= paint)
    .reduce((sum, request) => sum + request.transferSize, 0);
  return Math.round(bytes / 1024);
}

/** Failing audits of a category (score 0 or below 1 where binary), for the line after the scores. */
function failing(lhr, category) {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
    .map((ref) => ref.id);
}

/**
 * Chromium's own installability check (Lighthouse 12 dropped its PWA category): the manifest, the icons and
 * an active service worker, in an ordinary (not incognito) profile. Answers the errors, none when installable.
 */
async function installabilityErrors(cookie) {
  const profile = mkdtempSync(path.join(tmpdir(), 'lh-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromePath,
    args: ['--no-sandbox'],
  });
  try {
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors: errors } = await cdp.send('Page.getInstallabilityErrors');
    return errors.map((error) => error.errorId);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const cookie = await signIn();
const pages = [
  ['Home', '/'],
  ['Live match', `/live/${await matchId()}`],
  ['Wallet', '/wallet'],
];
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  console.log('page          performance  accessibility  best practices  first-load JS (KB)');
  for (const [name, pagePath] of pages) {
    const result = await lighthouse(`${base}${pagePath}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      extraHeaders: { Cookie: cookie },
    });
    const { lhr } = result;
    if (jsonDir) {
      mkdirSync(jsonDir, { recursive: true });
      writeFileSync(`${jsonDir}/${name.toLowerCase().replace(/\W+/g, '-')}.json`, JSON.stringify(lhr, null, 1));
    }
    const score = (category) => String(Math.round(lhr.categories[category].score * 100));
    const notes = [
      ['a11y', failing(lhr, 'accessibility')],
      ['best practices', failing(lhr, 'best-practices')],
    ]
      .filter(([, ids]) => ids.length > 0)
      .map(([label, ids]) => `${label} failing: ${ids.join(', ')}`);
    console.log(
      `${name.padEnd(14)}${score('performance').padStart(11)}  ${score('accessibility').padStart(13)}  ` +
        `${score('best-practices').padStart(14)}  ${String(firstLoadKb(lhr)).padStart(18)}` +
        (notes.length ? `   (${notes.join('; ')})` : ''),
    );
  }
} finally {
  await chrome.kill();
}
const errors = await installabilityErrors(cookie);
console.log(errors.length === 0 ? 'installable: yes' : `installable: no (${errors.join(', ')})`);
