/**
 * The schema files (supabase/schemas, the current definition of every database object) and the migrations
 * (supabase/migrations, the history that deploys) must build the same database. The migrations are pushed
 * to one new database as deploys push them (`supabase db push`), the schema files are applied to another in
 * the order of `[db.migrations] schema_paths` in supabase/config.toml (after supabase/roles.sql, as the push
 * runs it), and the two catalogs must agree object by object. A change made in only one of the two fails
 * here, naming the objects that differ.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushMigrations } from '../../scripts/lib/migrate.js';
import { root, run } from '../../scripts/lib/processes.js';
import { createScratchDatabase, dropScratchDatabase } from '../../scripts/lib/scratch-database.js';
import { describeDifferences, readCatalog, type Catalog } from '../support/catalog.ts';

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) throw new Error('DATABASE_URL is required (its server hosts the scratch databases)');
const supabaseDir = path.join(root, 'supabase');

/** The schema files in the order Supabase applies them: schema_paths, each glob sorted, duplicates once. */
function schemaFiles(): string[] {
  const config = readFileSync(path.join(supabaseDir, 'config.toml'), 'utf8');
  const section = config.split(/^\[/m).find((part) => part.startsWith('db.migrations]')) ?? '';
  const list = /schema_paths\s*=\s*\[([^\]]*)\]/.exec(section)?.[1] ?? '';
  const patterns = [...list.matchAll(/"([^"]+)"/g)].map((match) => path.join(supabaseDir, match[1]));
  const files = patterns.flatMap((pattern) => {
    if (!pattern.includes('*')) return [pattern];
    const name = new RegExp(
      `^${path
        .basename(pattern)
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')}$`,
    );
    const folder = path.dirname(pattern);
    return readdirSync(folder)
      .filter((file) => name.test(file))
      .sort()
      .map((file) => path.join(folder, file));
  });
  return [...new Set(files)];
}

let migrated: string;
let declared: string;
const catalogs: { migrations?: Catalog; schemas?: Catalog } = {};

async function catalogOf(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await readCatalog(sql);
  } finally {
    await sql.end();
  }
}

beforeAll(async () => {
  migrated = await createScratchDatabase(serverUrl, 'drift_migrations');
  declared = await createScratchDatabase(serverUrl, 'drift_schemas');
  await pushMigrations(migrated);
  const files = [path.join(supabaseDir, 'roles.sql'), ...schemaFiles()];
  await run(
    'psql',
    ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', ...files.flatMap((file) => ['-f', file]), declared],
    {
      capture: true,
    },
  );
  catalogs.migrations = await catalogOf(migrated);
  catalogs.schemas = await catalogOf(declared);
}, 180_000);

afterAll(async () => {
  for (const url of [migrated, declared]) if (url) await dropScratchDatabase(serverUrl, url);
});

describe('supabase/schemas and supabase/migrations', () => {
  it('lists every schema file in [db.migrations] schema_paths, so Supabase applies each one in a known order', () => {
    const listed = schemaFiles().map((file) => path.relative(supabaseDir, file));
    const present = readdirSync(path.join(supabaseDir, 'schemas'))
      .filter((file) => file.endsWith('.sql'))
      .map((file) => `schemas/${file}`);
    expect(listed.sort()).toEqual(present.sort());
  });

  it('build the same catalog: every function, table, constraint, index, policy, trigger, grant, comment and reference row', () => {
    const differences = describeDifferences(catalogs.migrations!, catalogs.schemas!, {
      expected: 'the migrations',
      actual: 'the schema files',
    });
    if (differences) {
      expect.fail(`The migrations and supabase/schemas disagree. Change both in one commit:\n${differences}`);
    }
    // a guard against comparing two empty catalogs
    expect(catalogs.schemas!.has('function app.place_bet(bigint,bigint,bigint,numeric,bigint)')).toBe(true);
  });
});
