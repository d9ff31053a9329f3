/**
 * The first `npm start` of an ordinary user: the embedded server runs as that user (as root it runs as the
 * postgres user instead: local-runtime.test.ts is that case, since CI runs as root). Run as root, this test
 * creates a throwaway user and starts as them through runuser; run as an ordinary user, the other test
 * already is this case and this one is skipped.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedUrl, freePort, interrupt, leftovers, start } from '../support/local-runtime.ts';
import { database } from '../support/api.ts';

const isRoot = process.getuid?.() === 0;
const user = `cricket_e2e_${process.pid}`;

describe.skipIf(!isRoot)('npm start as an ordinary user', () => {
  let folder: string | undefined;
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    execFileSync('userdel', ['--remove', user], { stdio: 'ignore' });
  });

  it('creates the cluster, owned by that user, with a password file only they can read, and serves', async () => {
    execFileSync('useradd', ['--create-home', '--shell', '/bin/sh', user]);
    const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }));
    folder = mkdtempSync(path.join(tmpdir(), 'cricket-user-'));
    chownSync(folder, id('-u'), id('-g'));
    const dataDir = path.join(folder, '.data', 'postgres');
    const home = `/home/${user}`;
    const env = {
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_PG_DIR: dataDir,
      API_WORKERS: '1',
      HOME: home,
      XDG_CACHE_HOME: path.join(home, '.cache'),
      DENO_DIR: path.join(home, '.cache', 'deno'),
    };
    const started = await start(env, { user });
    expect(started.output()).toContain(`Creating a new PostgreSQL cluster in ${dataDir}`);
    const health = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok', live_updates: 'ok' });
    for (const file of [dataDir, `${dataDir}.password`]) {
      expect(statSync(file).uid).toBe(id('-u'));
      expect(statSync(file).mode & 0o077).toBe(0); // the user's alone
    }
    const postmaster = readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
    expect(statSync(`/proc/${postmaster}`).uid).toBe(id('-u')); // the server runs as the user
    const db = database(embeddedUrl(dataDir, env.EMBEDDED_PG_PORT));
    const [{ players }] = await db`select count(*)::int as players from public.users where username = 'demo'`;
    expect(players).toBe(1); // migrated and seeded
    await db.end();
    await interrupt(started);
    expect(leftovers(dataDir)).toEqual([]);
  }, 180_000);
});
