/**
 * A database that goes away (Postgres restarting) must not take the server down with it. postgres.js
 * reports some connection-level failures (e.g. 57P03 "the database system is shutting down" while it
 * reconnects its LISTEN connection) as promise rejections that no request awaits, and Deno ends the
 * process on an unhandled rejection. Those are logged instead; every other unhandled rejection is a bug
 * and still crashes loudly.
 */
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'CONNECTION_CLOSED', 'CONNECT_TIMEOUT', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']);

function isDatabaseConnectionError(reason: unknown): reason is { code: string; message: string } {
  if (!(reason instanceof Error) || !('code' in reason) || typeof reason.code !== 'string') return false;
  // SQLSTATE class 57 (operator intervention: shutdown, restart) and 08 (connection exception)
  return CONNECTION_ERRORS.has(reason.code) || /^(57|08)/.test(reason.code);
}

globalThis.addEventListener('unhandledrejection', (event) => {
  if (!isDatabaseConnectionError(event.reason)) return;
  event.preventDefault();
  console.error(JSON.stringify({ level: 'warn', msg: 'database connection lost', code: event.reason.code, error: event.reason.message }));
});
