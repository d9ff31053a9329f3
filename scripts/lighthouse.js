// `npm run lighthouse`: mobile performance and accessibility of Home, Live match and Wallet, signed in,
// against a running server (`npm start`; LH_URL, default http://localhost:3000). Lighthouse 12 from npm,
// Chromium from CHROME_PATH (default /usr/bin/chromium). A fresh player is registered for the session.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { mkdirSync, writeFileSync } from 'node:fs';

// LH_JSON_DIR: also write each page's full report (lhr) there as JSON, to read the audits behind a score.
const jsonDir = process.env.LH_JSON_DIR;
const base = (process.env.LH_URL ?? 'http://localhost:3000').replace(/\/$/, '');

async function signIn() {
  const username = `lh${Date.now().toString(36)}`;
  const response = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ name: 'Lighthouse Player', username, email: `${username}@example.com`, password: 'lighthouse1' }),
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

const cookie = await signIn();
const pages = [
  ['Home', '/'],
  ['Live match', `/live/${await matchId()}`],
  ['Wallet', '/wallet'],
];
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  console.log('page          performance  accessibility');
  for (const [name, path] of pages) {
    const result = await lighthouse(`${base}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      extraHeaders: { Cookie: cookie },
    });
    if (jsonDir) {
      mkdirSync(jsonDir, { recursive: true });
      writeFileSync(`${jsonDir}/${name.toLowerCase().replace(/\W+/g, '-')}.json`, JSON.stringify(result.lhr, null, 1));
    }
    const { performance, accessibility } = result.lhr.categories;
    const failed = result.lhr.categories.accessibility.auditRefs
      .filter((ref) => ref.weight > 0 && result.lhr.audits[ref.id].score === 0)
      .map((ref) => ref.id);
    console.log(
      `${name.padEnd(14)}${String(Math.round(performance.score * 100)).padStart(11)}  ${String(Math.round(accessibility.score * 100)).padStart(13)}` +
        (failed.length ? `   (a11y failing: ${failed.join(', ')})` : ''),
    );
  }
} finally {
  await chrome.kill();
}
