/**
 * What we deploy is what we test: the `api` function bundle (`npm run build:functions`, built by
 * scripts/test.js before this step) imports nothing but Deno's `node:` built-ins, and a player's money
 * journey works through it, run by Deno from a folder holding nothing else.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_BUNDLE } from '../../scripts/lib/function-bundle.js';
import {
  balance,
  createAdmin,
  createMatch,
  database,
  fund,
  reconcile,
  settled,
  registerPlayer,
  startServer,
  type Db,
  type TestServer,
} from '../support/api.ts';

const bundle = path.resolve(import.meta.dirname, '../..', FUNCTION_BUNDLE);

/** Every module specifier the bundle loads: static imports and re-exports, dynamic import() and require(). */
function importedSpecifiers(code: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]));
}

describe('the deployed function bundle', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'cricket-bundle-'));
  let server: TestServer;
  let db: Db;

  beforeAll(async () => {
    if (!existsSync(bundle))
      throw new Error(`${FUNCTION_BUNDLE} is missing: run \`npm run build:functions\` (npm test does)`);
    copyFileSync(bundle, path.join(folder, 'index.js'));
    server = await startServer({ selfContained: path.join(folder, 'index.js') });
    db = database();
  });
  afterAll(async () => {
    await server?.stop();
    await db?.end();
    rmSync(folder, { recursive: true, force: true });
  });

  it('imports nothing but node: built-ins (no relative path, package or URL)', () => {
    const specifiers = importedSpecifiers(readFileSync(bundle, 'utf8'));
    expect(specifiers).toContain('node:net'); // the database driver is inside, talking through Deno's node:net
    expect(specifiers.filter((specifier) => !specifier.startsWith('node:'))).toEqual([]);
  });

  it('carries a player from registration to a settled winning bet', async () => {
    const player = await registerPlayer(server);
    await fund(server, player, 5000);
    const admin = await createAdmin(server, db);
    const match = await createMatch(admin, { live: true });

    const bet = await player.client.post('/api/bets', { match_id: match.id, team_id: match.team1_id, amount: 2000 });
    expect(bet.status).toBe(201);
    expect(bet.body).toMatchObject({ amount: 2000, potential_win: 6000, status: 'placed' });
    const declared = await admin.client.patch(`/api/admin/matches/${match.id}/declare-winner`, {
      winning_team_id: match.team1_id,
    });
    expect(declared.status).toBe(200);
    await settled(db, match.id);

    expect(await balance(db, player.id)).toBe(5000 - 2000 + 6000);
    expect((await player.client.get('/api/user')).body).toMatchObject({ wallet_balance: 9000 });
    expect((await player.client.get('/api/bets')).body).toMatchObject([{ id: bet.body.id, status: 'won' }]);
    expect(await reconcile(db)).toEqual([]);
  });
});
