/**
 * Backups: `npm run db:backup` then `npm run db:restore` (the real scripts, pg_dump/pg_restore) give back
 * exactly the backed-up ledger after later changes; a restore refuses to replace a database in use without
 * --force, and fills an empty one. Runs on scratch databases of DATABASE_URL's server (a restore --force
 * drops its database, so never the shared test database).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushMigrations } from '../../scripts/lib/migrate.js';
import { createScratchDatabase, dropScratchDatabase } from '../../scripts/lib/scratch-database.js';
import { runScript } from '../support/local-runtime.ts';

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) throw new Error('DATABASE_URL is required (its server hosts the scratch databases)');
const folder = mkdtempSync(path.join(tmpdir(), 'cricket-backups-'));

/** The ledger and the balances, as an auditor would compare them. */
async function ledger(sql: postgres.Sql) {
  return {
    transactions:
      await sql`select id, user_id, amount, type, status, reference_id, gateway_txn_id, created_at from public.transactions order by id`,
    balances: await sql`select id, username, wallet_balance from public.users order by id`,
    reconcile: await sql.begin(async (tx) => {
      await tx`set local role service_role`;
      return tx`select * from app.reconcile()`;
    }),
  };
}

/** A player who registers and pays deposits through the real functions (as the API and the webhook do). */
async function depositAs(sql: postgres.Sql, username: string, amounts: number[], complete = true) {
  await sql.begin(async (tx) => {
    await tx`set local role service_role`;
    await tx`select app.register_user(${username}, 'hash', 'Backup Player', ${`${username}@example.test`}, null, null)
             where not exists (select 1 from public.users where username = ${username})`;
    const [{ id }] = await tx`select id from public.users where username = ${username}`;
    await tx`select set_config('request.jwt.claims', ${JSON.stringify({ role: 'authenticated', user_id: id, app_role: 'user' })}, true)`;
    for (const amount of amounts) {
      const reference = `REF-${Date.now()}${Math.floor(Math.random() * 1e6)}-BKUP`;
      await tx`select app.request_deposit(${amount}, 'upi', ${reference})`;
      if (complete) await tx`select app.complete_deposit(${reference}, ${amount}, 'success', ${`GW-${reference}`})`;
    }
  });
}

describe('npm run db:backup / db:restore', () => {
  let source: string;
  let empty: string;
  let sql: postgres.Sql;
  let backedUp: Awaited<ReturnType<typeof ledger>>;
  let file: string;

  beforeAll(async () => {
    source = await createScratchDatabase(serverUrl, 'cricket_backup');
    empty = await createScratchDatabase(serverUrl, 'cricket_restore');
    await pushMigrations(source);
    sql = postgres(source, { max: 2, onnotice: () => {} });
    await depositAs(sql, 'backup_alice', [5000, 700]);
    await depositAs(sql, 'backup_bob', [1200]);
    backedUp = await ledger(sql);
    const backup = await runScript('scripts/db-backup.js', ['--dir', folder], { DATABASE_URL: source });
    if (backup.code !== 0) throw new Error(backup.output);
    [file] = readdirSync(folder)
      .filter((name) => name.endsWith('.dump'))
      .map((name) => path.join(folder, name));
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await Promise.all([source, empty].filter(Boolean).map((url) => dropScratchDatabase(serverUrl, url)));
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes one timestamped custom-format dump', () => {
    expect(path.basename(file)).toMatch(/^cricket-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.dump$/);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP'); // pg_dump's custom format
    expect(backedUp.transactions).toHaveLength(3);
    expect(backedUp.reconcile).toEqual([]);
  });

  it('gives back exactly the backed-up ledger, refusing to overwrite without --force', async () => {
    // Life goes on after the backup: more money in, a deposit left pending.
    await depositAs(sql, 'backup_alice', [9000]);
    await depositAs(sql, 'backup_carol', [600], false);
    expect((await ledger(sql)).transactions).toHaveLength(5);

    const refused = await runScript('scripts/db-restore.js', [file], { DATABASE_URL: source });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/already holds \d+ tables; restoring would replace them\. Run again with --force/);
    expect((await ledger(sql)).transactions).toHaveLength(5); // untouched

    await sql.end();
    const restored = await runScript('scripts/db-restore.js', [file, '--force'], { DATABASE_URL: source });
    expect(restored.code, restored.output).toBe(0);
    sql = postgres(source, { max: 2, onnotice: () => {} });
    expect(await ledger(sql)).toEqual(backedUp);
  }, 60_000);

  it('restores into an empty database without --force', async () => {
    const restored = await runScript('scripts/db-restore.js', [file], { DATABASE_URL: empty });
    expect(restored.code, restored.output).toBe(0);
    const target = postgres(empty, { max: 1, onnotice: () => {} });
    try {
      expect(await target`select username, wallet_balance from public.users order by id`).toEqual([
        { username: 'backup_alice', wallet_balance: '5700' },
        { username: 'backup_bob', wallet_balance: '1200' },
      ]);
    } finally {
      await target.end();
    }
  }, 60_000);
});
