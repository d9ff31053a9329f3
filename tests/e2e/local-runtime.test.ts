/**
 * `npm start` as a user runs it: real embedded PostgreSQL in a fresh data folder, migrations pushed with
 * the Supabase CLI, the admin created, Deno workers serving the SPA and /api on one origin. Ctrl-C (SIGINT
 * to the process group) must leave no postgres or deno process behind, and a second start keeps the data.
 * A pending deposit older than 24 hours is failed by the stale-deposit job at the next start. A backup taken
 * while it serves restores into a fresh data folder that a third start serves. The data folder has the
 * default's layout (`.data/postgres`, with `.data` not there yet): as root (CI) the server runs as the
 * postgres user, which must be able to enter `.data`. The cluster's password is its own, and so is the key
 * of its two-factor secrets, which backups carry to the restored cluster.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, database, depositReference } from '../support/api.ts';
import {
  embeddedUrl,
  freePort,
  interrupt,
  leftovers,
  runScript,
  runtimeFolder,
  start,
  within,
} from '../support/local-runtime.ts';

const folder = runtimeFolder();
const dataDir = path.join(folder, '.data', 'postgres');

describe('npm start', () => {
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('serves the SPA and /api on one origin, stops cleanly on Ctrl-C, keeps the data, fails stale deposits and restores a backup', async () => {
    const env = {
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_PG_DIR: dataDir,
      API_WORKERS: '2',
    };
    const first = await start(env);
    const base = `http://127.0.0.1:${env.PORT}`;
    expect(first.output()).toMatch(/Admin account: username "admin", password "[\w-]{16}"/);
    expect(first.output()).toMatch(
      /2 server worker\(s\), each with 10 database connections and 1 for live updates \(PostgreSQL: max_connections 100/,
    );

    const html = await fetch(`${base}/`).then((response) => response.text());
    expect(html).toContain('<div id="root">');
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok', live_updates: 'ok' });

    // A deposit the gateway never answered, made 25 hours ago: the next start's stale-deposit job fails it.
    const demo = new Client(base);
    expect((await demo.post('/api/login', { username: 'demo', password: 'demo1234' })).status).toBe(200);
    const reference = depositReference();
    expect(
      (await demo.post('/api/wallet/deposit', { amount: 700, paymentMethod: 'upi', reference, status: 'pending' }))
        .status,
    ).toBe(201);
    // The cluster's password: random, in a file beside the data folder that only its owner may read.
    const passwordFile = `${dataDir}.password`;
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(statSync(passwordFile).uid).toBe(process.getuid!());
    expect(readFileSync(passwordFile, 'utf8').trim()).toMatch(/^[\w-]{32}$/);
    // The key the API seals two-factor secrets with (TOTP_ENCRYPTION_KEY): beside it, as private.
    const keyFile = `${dataDir}.totp-key`;
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const totpKey = readFileSync(keyFile, 'utf8').trim();
    expect(Buffer.from(totpKey, 'base64')).toHaveLength(32);
    const fixed = database(`postgresql://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/postgres`);
    await expect(fixed`select 1`).rejects.toThrow(/password authentication failed/);
    await fixed.end();
    const db = database(embeddedUrl(dataDir, env.EMBEDDED_PG_PORT));
    await db`update public.transactions set created_at = now() - interval '25 hours' where reference_id = ${reference}`;
    // Turn it into a cluster of the time when every cluster had the fixed password 'postgres'.
    await db`alter role postgres password 'postgres'`;
    await db.end();
    rmSync(passwordFile);

    await interrupt(first);
    expect(leftovers(dataDir)).toEqual([]);

    const second = await start(env);
    expect(second.output()).toContain(`The embedded PostgreSQL now has a password of its own, in ${passwordFile}`);
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    const retired = database(`postgresql://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/postgres`);
    await expect(retired`select 1`).rejects.toThrow(/password authentication failed/);
    await retired.end();
    expect(second.output()).not.toContain('Admin account'); // the admin from the first start is still there
    expect(second.output()).not.toContain('New database');
    expect(
      await within(10_000, async () =>
        second
          .output()
          .includes('Stale deposits: 1 pending deposit(s) without a gateway answer for 24 hours marked failed'),
      ),
    ).toBe(true);
    const [deposit] = (await demo.get('/api/wallet/transactions')).body.filter(
      (row: { reference_id: string }) => row.reference_id === reference,
    );
    expect(deposit).toMatchObject({ status: 'failed', amount: 700 });
    const backups = path.join(folder, 'backups');
    const backup = await runScript('scripts/db-backup.js', ['--dir', backups], env);
    expect(backup.code, backup.output).toBe(0);
    const [file] = readdirSync(backups)
      .filter((name) => name.endsWith('.dump'))
      .map((name) => path.join(backups, name));
    expect(statSync(`${file}.totp-key`).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${file}.totp-key`, 'utf8').trim()).toBe(totpKey);
    const refused = await runScript('scripts/db-restore.js', [file, '--force'], env);
    expect(refused.output).toContain('npm start is running on'); // never under a serving API
    expect(refused.code).not.toBe(0);
    await interrupt(second);
    expect(leftovers(dataDir)).toEqual([]);

    const restoredDir = path.join(folder, 'restored');
    const restoredEnv = { ...env, EMBEDDED_PG_DIR: restoredDir };
    const restore = await runScript('scripts/db-restore.js', [file], restoredEnv);
    expect(restore.code, restore.output).toBe(0);
    expect(leftovers(restoredDir)).toEqual([]); // the restore stopped the server it started
    expect(readFileSync(`${restoredDir}.totp-key`, 'utf8').trim()).toBe(totpKey); // the data's own key
    const third = await start(restoredEnv);
    expect(third.output()).not.toContain('New database'); // the restored data, migration history included
    expect(third.output()).not.toContain('Admin account');
    expect((await new Client(base).post('/api/login', { username: 'demo', password: 'demo1234' })).status).toBe(200);
    await interrupt(third);
    expect(leftovers(restoredDir)).toEqual([]);
  }, 300_000);
});
