import { describe, expect, it } from 'vitest';
import { browserSuite } from '../support/browser.ts';

describe('the web app', () => {
  const suite = browserSuite();

  it('renders the home page at /', async () => {
    const page = await (await suite.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${suite.server.url}/`);
    await page.getByRole('heading', { name: 'IPL Season 2025' }).waitFor();
    expect(errors).toEqual([]);
  });
});
