// pg_dump and pg_restore of the database server's own major version. pg_dump refuses servers newer than
// itself, and a dump is best read by the same major, so we use exactly the server's: Debian's
// postgresql-client-<major> (installed with apt when running as root, like the test packages), or one on
// PATH of that major.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { aptInstall } from './system.js';

function majorOfTool(program) {
  try {
    return Number(/\(PostgreSQL\) (\d+)/.exec(execFileSync(program, ['--version'], { encoding: 'utf8' }))?.[1]);
  } catch {
    return undefined; // not installed
  }
}

/** The path of `name` (pg_dump, pg_restore) for PostgreSQL `major`, installing Debian's client package if needed. */
export function clientTool(name, major) {
  const debian = `/usr/lib/postgresql/${major}/bin/${name}`;
  const found = () =>
    [debian, name].find((candidate) => (candidate === debian ? existsSync(debian) : majorOfTool(candidate) === major));
  if (!found() && existsSync('/usr/lib/postgresql'))
    aptInstall([`postgresql-client-${major}`], `${name} for PostgreSQL ${major}`);
  const program = found();
  if (!program)
    throw new Error(`${name} of PostgreSQL ${major} is needed: install the PostgreSQL ${major} client tools.`);
  return program;
}

/**
 * libpq arguments for a connection URL: the URL without its password (command lines are visible to other
 * users of the machine) and the password in PGPASSWORD.
 */
export function libpqTarget(url) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}
