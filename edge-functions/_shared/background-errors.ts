/**
 * A database that goes away (Postgres restarting) must not take the server down with it. postgres.js
 * reports some connection-level failures (e.g. 57P03 "the database system is shutting down" while it
 * reconnects its LISTEN connection) as promise rejections that no request awaits, and Deno ends the
 * process on an unhandled rejection. Those are logged instead; every other unhandled rejection is a bug
 * and still crashes loudly.
 */
import { isDatabaseUnavailable } from './errors.ts';

globalThis.addEventListener('unhandledrejection', (event) => {
  if (!isDatabaseUnavailable(event.reason)) return;
  event.preventDefault();
  console.error(
    JSON.stringify({
      level: 'warn',
      msg: 'database connection lost',
      code: event.reason.code,
      error: event.reason.message,
    }),
  );
});
