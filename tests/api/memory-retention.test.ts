/**
 * Nothing of a request outlives it in the server's memory (a worker that keeps ~5 KB of each request outgrows
 * its 256 MB within a match day).
 *
 * - The request path's transaction (edge-functions/_shared/db.ts): once a request's statements are answered, its
 *   reserved connection is garbage, even while the pool lives on (a waiting request's listener on the pool's
 *   retirement is removed, not left on a promise that never settles). Checked in Deno with the collector
 *   run by hand: of 300 requests' connections, at most the pool's size may still be reachable.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { requireEnv } from '../support/server.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('memory kept per request', () => {
  it('keeps no reserved connection of an answered request reachable', async () => {
    const { stdout } = await promisify(execFile)(
      path.join(root, 'node_modules/.bin/deno'),
      [
        'run',
        '--node-modules-dir=manual',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--allow-sys',
        '--v8-flags=--expose-gc',
        'tests/support/pool-retention.deno.ts',
      ],
      { cwd: root, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', DATABASE_URL: requireEnv('DATABASE_URL') } },
    );
    const { rounds, reachable } = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(rounds).toBe(300);
    expect(reachable).toBeLessThanOrEqual(2);
  });
});
