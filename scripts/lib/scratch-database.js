// Throw-away databases on a PostgreSQL server, for `npm test` and `npm run bench`.
import postgres from 'postgres';

async function onServer(serverUrl, statement) {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}

/** Creates a new, empty database on the server of `serverUrl` and returns its URL. */
export async function createScratchDatabase(serverUrl, prefix) {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  await onServer(serverUrl, `create database ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return target.toString();
}

export async function dropScratchDatabase(serverUrl, databaseUrl) {
  await onServer(serverUrl, `drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
}

/** The URL without its password, for printing. */
export function redact(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
