// Applies supabase/migrations with the real Supabase CLI, so the migration history table is the one
// hosted Supabase uses.
import postgres from 'postgres';
import { bin, root, run } from './processes.js';

/** True when no migration has ever been pushed to this database (the first start). */
export async function isNewDatabase(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select to_regclass('supabase_migrations.schema_migrations') is null as fresh`;
    return row.fresh;
  } finally {
    await sql.end();
  }
}

export async function pushMigrations(url, { seed = false } = {}) {
  const args = ['db', 'push', `--remote=${url}`, '--include-roles', '--yes'];
  if (seed) args.push('--include-seed');
  const output = await run(bin('supabase'), args, { capture: true, cwd: root });
  return output;
}
