// The local runtime's timer for app.fail_stale_deposits (supabase/schemas/20_wallet.sql):
// where pg_cron is enabled the database runs the job itself, and this timer stands down.
import postgres from 'postgres';

const EVERY_MS = 5 * 60_000;

/** Runs the job now and every 5 minutes; `cancel()` stops it. A failed run (database away) waits for the next. */
export function scheduleStaleDeposits(databaseUrl, log) {
  const sql = postgres(databaseUrl, { max: 1, idle_timeout: 10, onnotice: () => {} });
  let timer;
  const cancel = () => {
    clearInterval(timer);
    void sql.end({ timeout: 0 });
  };
  const runOnce = async () => {
    try {
      const [{ cron }] = await sql`select exists (select 1 from pg_extension where extname = 'pg_cron') as cron`;
      if (cron) {
        log('Stale deposits: pg_cron runs app.fail_stale_deposits() in the database');
        return cancel();
      }
      const failed = await sql.begin(async (tx) => {
        await tx`set local role service_role`;
        const [row] = await tx`select app.fail_stale_deposits() as failed`;
        return row.failed;
      });
      if (failed > 0)
        log(`Stale deposits: ${failed} pending deposit(s) without a gateway answer for 24 hours marked failed`);
    } catch (error) {
      log(`Stale deposits: not run this time (${error.message})`);
    }
  };
  timer = setInterval(runOnce, EVERY_MS);
  void runOnce();
  return { cancel };
}
