/** Debian's Chromium driven by playwright-core (no browser downloads on our machines). */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}
