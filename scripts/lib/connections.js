// How many database connections each server worker may hold, within PostgreSQL's limit.
import postgres from 'postgres';

/** The per-worker pool unless DATABASE_POOL_MAX says otherwise (the same default as edge-functions/_shared/env.ts). */
export const DEFAULT_POOL_MAX = 10;
/** Connections left for everything but the workers: migrations, backups, psql, the stale-deposit timer. */
const HEADROOM = 5;

/**
 * Each worker's pool size: what `max_connections` leaves after the reserved slots, the connections others
 * hold now and the headroom, shared by the workers (each also holds one LISTEN connection for live updates),
 * at most `wanted`. Throws when not even one connection per worker fits.
 */
export async function poolPerWorker(url, workers, wanted = DEFAULT_POOL_MAX) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [limits] = await sql`
      select current_setting('max_connections')::int as max,
             current_setting('superuser_reserved_connections')::int
               + coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) as reserved,
             (select count(*)::int from pg_stat_activity
               where backend_type = 'client backend' and pid <> pg_backend_pid()) as held`;
    const fair = Math.floor((limits.max - limits.reserved - limits.held - HEADROOM) / workers) - 1;
    if (fair < 1) {
      throw new Error(
        `PostgreSQL allows ${limits.max} connections (${limits.reserved} reserved, ${limits.held} in use): too few for ` +
          `${workers} server workers. Lower API_WORKERS or raise max_connections.`,
      );
    }
    return { pool: Math.min(wanted, fair), ...limits };
  } finally {
    await sql.end();
  }
}
