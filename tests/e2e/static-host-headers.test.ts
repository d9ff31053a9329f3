/**
 * A static host serving dist/ (README "Deploying to Supabase") sends the headers of the build's _headers file;
 * they must be the ones the local server sends with the same pages: CSP with frame-ancestors 'none', HSTS,
 * nosniff, the referrer policy, and the long cache of hashed assets.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

/** `_headers` (Netlify / Cloudflare Pages): a path pattern, then its indented `name: value` lines. */
function parseHeadersFile(text: string): Map<string, Record<string, string>> {
  const rules = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) rules.set(line.trim(), (current = {}));
    else {
      const colon = line.indexOf(':');
      current![line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
  }
  return rules;
}

describe('the static host configuration (dist/_headers)', () => {
  let server: TestServer;
  const rules = parseHeadersFile(readFileSync('dist/_headers', 'utf8'));
  beforeAll(async () => {
    server = await startServer({ staticDir: 'dist' });
  });
  afterAll(() => server?.stop());

  it('carries the security headers', () => {
    expect(Object.keys(rules.get('/*')!)).toEqual(
      expect.arrayContaining([
        'content-security-policy',
        'strict-transport-security',
        'x-content-type-options',
        'referrer-policy',
        'x-frame-options',
      ]),
    );
    expect(rules.get('/*')!['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(rules.get('/*')!['x-content-type-options']).toBe('nosniff');
  });

  for (const [page, pattern] of [
    ['/', '/*'],
    ['/wallet', '/*'],
    ['/assets/', '/assets/*'],
  ]) {
    it(`matches what the local server sends for ${page}`, async () => {
      const path =
        page === '/assets/' ? `/assets/${readdirSync('dist/assets').find((file) => file.endsWith('.js'))}` : page;
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      const expected = { ...rules.get('/*'), ...rules.get(pattern) };
      const sent = Object.fromEntries(Object.keys(expected).map((name) => [name, response.headers.get(name)]));
      expect(sent).toEqual(expected);
      // and nothing security-relevant the file lacks
      const securityNames = [...response.headers.keys()].filter((name) =>
        /^(content-security|strict-transport|x-|referrer|cross-origin|origin-agent|permissions)/.test(name),
      );
      expect(securityNames.filter((name) => !(name in expected))).toEqual([]);
    });
  }
});
